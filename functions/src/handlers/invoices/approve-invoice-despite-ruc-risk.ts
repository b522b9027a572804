import { reviewRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { invoiceReview } from '../../use-cases/review-invoice.factory.js';

export const handler = httpHandler(reviewRoutes.approveInvoiceDespiteRucRisk, ({ caller, path, body }) =>
  invoiceReview.approve(caller, path, { overrideReason: body.reason }),
);
