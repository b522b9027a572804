import { reviewDeps } from './review-invoice.factory.js';
import { makeInvoiceReview } from './review-invoice.js';
import { uploads } from './uploads.factory.js';

/**
 * The review wired as review-invoice.factory.ts wires it, plus the attachment checks of the completion
 * (PUT): for the update handler only, so that the other review handlers do not carry the bucket adapter.
 */
export const invoiceCompletion = makeInvoiceReview({
  ...reviewDeps,
  verifyAttachment: (key, tenants, position) => uploads.verifyAttachment(key, tenants, position),
});
