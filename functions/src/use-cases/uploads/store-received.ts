import type { Caller } from '../../http/caller.js';
import { UPLOAD_REFUSALS, judgeContent, judgeType } from './upload-checks.js';
import {
  KINDS,
  RECEIVED_PURPOSES,
  cleanFileName,
  derivedId,
  tenantOf,
  uploadKeyOf,
  type Kind,
} from './upload-kinds.js';
import type { UploadsDeps } from './uploads-deps.js';

/**
 * A file that arrived inside a zip or an e-mail, stored as an upload of the caller's tenant would be, so that the
 * intake checks it exactly as it checks a presigned upload. Its key's id is derived from `sourceKey` and the part:
 * the same document stored again (a retried message) lands on the same key, and the intake recognises its own
 * invoice by it. The file name is metadata, as for an upload.
 */
export async function storeReceived(
  deps: Pick<UploadsDeps, 'files' | 'clock' | 'log'>,
  caller: Caller,
  sourceKey: string,
  part: 'xml' | 'pdf' | 'cdr',
  file: { readonly name: string; readonly bytes: Uint8Array },
): Promise<string> {
  const kind: Kind = part === 'pdf' ? 'pdf' : 'xml';
  const contentType = kind === 'pdf' ? 'application/pdf' : 'application/xml';
  const purpose = RECEIVED_PURPOSES[part];
  const tenant = tenantOf(caller);
  const key = uploadKeyOf(tenant, deps.clock(), derivedId(`${sourceKey}#${part}`), kind);
  // verifyUpload's checks, on the bytes in hand rather than on the object read back: the same tenant rule, stored
  // type, size limit and content by its bytes, so a file refused here is never stored.
  if (!(caller.level === 'ADMIN' || caller.taxIds.includes(tenant))) throw UPLOAD_REFUSALS.notFound();
  const problem =
    judgeType(purpose, contentType, KINDS[kind].ext, file.bytes.length, UPLOAD_REFUSALS) ??
    judgeContent(contentType, file.bytes.length, file.bytes, UPLOAD_REFUSALS);
  if (problem) {
    deps.log.warn('received file refused, not stored', { key, reason: problem.reason, code: problem.error.code });
    throw problem.error;
  }
  await deps.files.put(key, file.bytes, contentType, { filename: encodeURIComponent(cleanFileName(file.name)) });
  return key;
}
