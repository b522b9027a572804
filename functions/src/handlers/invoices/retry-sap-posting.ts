import { reviewRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { invoiceReview } from '../../use-cases/review-invoice.factory.js';

export const handler = httpHandler(reviewRoutes.retrySapPosting, ({ caller, path }) =>
  invoiceReview.retrySapPosting(caller, path),
);
