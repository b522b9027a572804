import { reviewRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { invoiceReview } from '../../use-cases/review-invoice.factory.js';

export const handler = httpHandler(reviewRoutes.updateInvoice, ({ caller, path, body }) =>
  invoiceReview.update(caller, path, body),
);
