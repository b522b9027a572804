import { uploads } from '../uploads.factory.js';
import type { ReviewDeps } from './review-deps.js';
import { reviewDeps } from './review.factory.js';

/**
 * The review's adapters as review.factory.ts wires them, plus the attachment checks of the completion (PUT): for
 * the update handler only, so that the other review handlers do not carry the bucket adapter.
 */
export const completionDeps: ReviewDeps = {
  ...reviewDeps,
  verifyAttachment: (key, tenants, position) => uploads.verifyAttachment(key, tenants, position),
};
