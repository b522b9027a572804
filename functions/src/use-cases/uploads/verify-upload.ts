import type { Caller } from '../../http/caller.js';
import { UPLOAD_REFUSALS, fileOfManyRefusals, inspectUpload } from './upload-checks.js';
import type { UploadPurpose } from './upload-kinds.js';
import type { UploadsDeps, VerifiedUpload } from './uploads-deps.js';

type InspectDeps = Pick<UploadsDeps, 'files' | 'uses' | 'log'>;

/**
 * What the intake use cases call before they trust an uploaded key (see inspectUpload): the key must be
 * under one of the caller's tenants (an admin's: any).
 */
export function verifyUpload(
  deps: InspectDeps,
  key: string,
  purpose: UploadPurpose,
  caller: Caller,
): Promise<VerifiedUpload> {
  const mine = (tenant: string) => caller.level === 'ADMIN' || caller.taxIds.includes(tenant);
  return inspectUpload(deps, key, purpose, mine, UPLOAD_REFUSALS);
}

/** The codes a file among several is refused with, by its purpose. */
const FILE_OF_MANY_CODES = {
  ATTACHMENT: { notFound: 'ERROR_ATTACHMENT_NOT_FOUND', invalid: 'ERROR_ATTACHMENT_INVALID' },
  MESSAGE_ATTACHMENT: { notFound: 'ERROR_MESSAGE_ATTACHMENT_NOT_FOUND', invalid: 'ERROR_MESSAGE_ATTACHMENT_INVALID' },
} as const;

/** One file among several (see inspectUpload): an upload made for one of `tenants`, named by its `position`. */
function verifyFileOfMany(
  deps: InspectDeps,
  purpose: keyof typeof FILE_OF_MANY_CODES,
  key: string,
  tenants: readonly string[],
  position: number,
): Promise<VerifiedUpload> {
  const refusals = fileOfManyRefusals(FILE_OF_MANY_CODES[purpose], purpose, key, position);
  return inspectUpload(deps, key, purpose, (tenant) => tenants.includes(tenant), refusals);
}

/**
 * What an invoice's completion calls for each attachment it adds: the key must be an upload made for one of
 * `tenants` (the invoice's company, and 'admin' for an admin), and it must pass the attachment checks. `position`
 * (1-based) names it in the refusal.
 */
export function verifyAttachment(
  deps: InspectDeps,
  key: string,
  tenants: readonly string[],
  position: number,
): Promise<VerifiedUpload> {
  return verifyFileOfMany(deps, 'ATTACHMENT', key, tenants, position);
}

/**
 * What posting a message calls for each file it attaches: an upload for MESSAGE_ATTACHMENT made for one of `tenants`
 * (the poster's side of the invoice), checked by its bytes. `position` (1-based) names it.
 */
export function verifyMessageAttachment(
  deps: InspectDeps,
  key: string,
  tenants: readonly string[],
  position: number,
): Promise<VerifiedUpload> {
  return verifyFileOfMany(deps, 'MESSAGE_ATTACHMENT', key, tenants, position);
}
