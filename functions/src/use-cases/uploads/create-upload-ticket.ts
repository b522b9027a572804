import { BadRequestError, type UploadTicket } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import {
  KIND_OF_TYPE,
  LINK_LIFETIME_SECONDS,
  UPLOAD_LIMITS,
  cleanFileName,
  mediaType,
  sizeText,
  tenantOf,
  uploadKeyOf,
  type CreateUploadBody,
} from './upload-kinds.js';
import type { UploadsDeps } from './uploads-deps.js';

/**
 * POST /uploads. Steps:
 * 1. the declared type and size fit the purpose;
 * 2. the server makes the key under the caller's tenant (the file name is metadata, never the key);
 * 3. a presigned POST bound to that key, type and size range, valid for five minutes.
 */
export async function createUploadTicket(
  deps: Pick<UploadsDeps, 'files' | 'clock' | 'newId'>,
  caller: Caller,
  body: CreateUploadBody,
): Promise<UploadTicket> {
  const limits = UPLOAD_LIMITS[body.purpose];
  const contentType = mediaType(body.contentType);
  if (!limits.contentTypes.includes(contentType)) {
    throw new BadRequestError('ERROR_UPLOAD_TYPE_NOT_ALLOWED', {
      contentType: body.contentType,
      allowed: limits.contentTypes.join(', '),
    });
  }
  if (body.size > limits.maxBytes) {
    throw new BadRequestError('ERROR_UPLOAD_TOO_LARGE', {
      maxBytes: limits.maxBytes,
      maxSize: sizeText(limits.maxBytes),
    });
  }
  const now = deps.clock();
  const key = uploadKeyOf(tenantOf(caller), now, deps.newId(), KIND_OF_TYPE[contentType]!);
  const post = await deps.files.presignPost({
    key,
    contentType,
    maxBytes: limits.maxBytes,
    expiresInSeconds: LINK_LIFETIME_SECONDS,
    // Metadata travels as ASCII: the name is percent-encoded and decoded when read back.
    metadata: { filename: encodeURIComponent(cleanFileName(body.fileName)) },
  });
  return {
    key,
    url: post.url,
    fields: post.fields,
    expiresAt: new Date(now.getTime() + LINK_LIFETIME_SECONDS * 1000).toISOString(),
    maxBytes: limits.maxBytes,
  };
}
