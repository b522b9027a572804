import { uploadsDeps } from '../uploads/uploads.factory.js';
import { verifyAttachment } from '../uploads/verify-upload.js';
import type { ReviewDeps } from './review-deps.js';
import { reviewDeps } from './review.factory.js';

/**
 * The review's adapters as review.factory.ts wires them, plus the attachment checks of the completion (PUT): for
 * the update handler only, so that the other review handlers do not carry the bucket adapter.
 */
export const completionDeps: ReviewDeps = {
  ...reviewDeps,
  verifyAttachment: (key, tenants, position) => verifyAttachment(uploadsDeps, key, tenants, position),
};
