import { BadRequestError, type ErrorCode } from '@portal/shared';
import {
  KINDS,
  KIND_OF_TYPE,
  SNIFF_BYTES,
  UPLOAD_KEY,
  UPLOAD_LIMITS,
  cleanFileName,
  labelsOf,
  mediaType,
  sizeText,
  type UploadPurpose,
} from './upload-kinds.js';
import type { UploadsDeps, VerifiedUpload } from './uploads-deps.js';

/** What a refusal answers: the upload codes for intake, the attachment codes for an invoice's completion. */
export interface Refusals {
  notFound(): BadRequestError;
  wrongType(purpose: UploadPurpose): BadRequestError;
  tooLarge(maxBytes: number): BadRequestError;
  wrongContent(expected: string): BadRequestError;
}

/** An upload the intake checks (POST /invoices, a zip's or an e-mail's file). */
export const UPLOAD_REFUSALS: Refusals = {
  notFound: () => new BadRequestError('ERROR_UPLOAD_NOT_FOUND'),
  wrongType: (purpose) => new BadRequestError('ERROR_UPLOAD_CONTENT_MISMATCH', { expected: labelsOf(purpose) }),
  tooLarge: (maxBytes) => new BadRequestError('ERROR_UPLOAD_TOO_LARGE', { maxBytes, maxSize: sizeText(maxBytes) }),
  wrongContent: (expected) => new BadRequestError('ERROR_UPLOAD_CONTENT_MISMATCH', { expected }),
};

/**
 * The refusals of one file among several (an invoice's attachments, a message's): missing, or anything else wrong
 * with it, each naming the file and its `position` (1-based) under the purpose's own codes.
 */
export function fileOfManyRefusals(
  codes: { readonly notFound: ErrorCode; readonly invalid: ErrorCode },
  purpose: 'ATTACHMENT' | 'MESSAGE_ATTACHMENT',
  key: string,
  position: number,
): Refusals {
  const invalid = () =>
    new BadRequestError(codes.invalid, {
      attachment: key,
      position,
      allowed: labelsOf(purpose),
      maxSize: sizeText(UPLOAD_LIMITS[purpose].maxBytes),
    });
  return {
    notFound: () => new BadRequestError(codes.notFound, { attachment: key, position }),
    wrongType: invalid,
    tooLarge: invalid,
    wrongContent: invalid,
  };
}

/** What `inspect` refuses, and why (for the log). */
export interface Problem {
  readonly reason: string;
  readonly error: BadRequestError;
}

/** The stored type fits the purpose and the key's extension, and the size its limit. */
export function judgeType(
  purpose: UploadPurpose,
  contentType: string,
  ext: string,
  size: number,
  refusals: Pick<Refusals, 'wrongType' | 'tooLarge'>,
): Problem | null {
  const limits = UPLOAD_LIMITS[purpose];
  const kind = KIND_OF_TYPE[contentType];
  if (!kind || !limits.contentTypes.includes(contentType) || KINDS[kind].ext !== ext) {
    return { reason: `stored type ${contentType || 'none'}`, error: refusals.wrongType(purpose) };
  }
  if (size > limits.maxBytes) return { reason: `size ${size}`, error: refusals.tooLarge(limits.maxBytes) };
  return null;
}

/**
 * The bytes are what the type says: for an XML, all of it (an XML that grew or shrank since the HEAD was replaced
 * in between: only what was read is judged); for the others, their first bytes. The type passed judgeType.
 */
export function judgeContent(
  contentType: string,
  size: number,
  bytes: Uint8Array,
  refusals: Pick<Refusals, 'wrongContent'>,
): Problem | null {
  const kind = KIND_OF_TYPE[contentType]!;
  const expected = KINDS[kind];
  const consistent = kind !== 'xml' || bytes.length === size;
  if (size === 0 || bytes.length === 0 || !consistent || !expected.matches(bytes)) {
    return { reason: `content is not ${expected.label}`, error: refusals.wrongContent(expected.label) };
  }
  return null;
}

/**
 * A refused upload is deleted, so that nothing half-stored remains under a key someone might use
 * later (docs/adr/0004-files-belong-to-their-tenant.md), unless an invoice names it (an XML or PDF sent again, an
 * invoice's file offered as something else): that file is the invoice's record and stays. The refusal is logged
 * with its key and reason for the audit trail; a failed delete is logged and the refusal stands.
 */
export async function discardUpload(
  deps: Pick<UploadsDeps, 'files' | 'uses' | 'log'>,
  key: string,
  reason: string,
  code: string,
): Promise<void> {
  try {
    if (await deps.uses.inUse(key)) {
      deps.log.warn('upload refused, kept: an invoice uses it', { key, reason, code });
      return;
    }
    await deps.files.delete(key);
    deps.log.warn('upload refused and deleted', { key, reason, code });
  } catch (cause) {
    deps.log.error('refused upload could not be deleted', { key, reason, code, cause: (cause as Error).message });
  }
}

/**
 * Steps:
 * 1. the key is a server-made key of a tenant `allowed` accepts; otherwise, and when there is no
 *    such object, not found — nothing is touched (another tenant's upload is a missing one);
 * 2. the stored type fits the purpose and the size its limit (a client is never trusted);
 * 3. the first bytes are what the type says (an XML is read whole, bounded by its limit).
 * A refused object is deleted (see discardUpload).
 */
export async function inspectUpload(
  deps: Pick<UploadsDeps, 'files' | 'uses' | 'log'>,
  key: string,
  purpose: UploadPurpose,
  allowed: (tenant: string) => boolean,
  refusals: Refusals,
): Promise<VerifiedUpload> {
  const refuse = async (problem: Problem): Promise<never> => {
    await discardUpload(deps, key, problem.reason, problem.error.code);
    throw problem.error;
  };
  const limits = UPLOAD_LIMITS[purpose];
  const match = UPLOAD_KEY.exec(key);
  const tenant = match?.[1];
  if (!match || tenant === undefined || !allowed(tenant)) throw refusals.notFound();

  const info = await deps.files.head(key);
  if (!info) throw refusals.notFound();

  const contentType = mediaType(info.contentType);
  const typeProblem = judgeType(purpose, contentType, match[2]!, info.size, refusals);
  if (typeProblem) await refuse(typeProblem);

  const whole = KIND_OF_TYPE[contentType] === 'xml';
  const bytes = await deps.files.readStart(key, whole ? limits.maxBytes : SNIFF_BYTES);
  if (!bytes) throw refusals.notFound();
  const contentProblem = judgeContent(contentType, info.size, bytes, refusals);
  if (contentProblem) await refuse(contentProblem);

  let fileName = cleanFileName(info.metadata.filename ?? '');
  try {
    fileName = cleanFileName(decodeURIComponent(info.metadata.filename ?? ''));
  } catch {
    // A name that is not percent-encoding is kept as stored.
  }
  return { key, size: info.size, contentType, fileName, ...(whole ? { bytes } : {}) };
}
