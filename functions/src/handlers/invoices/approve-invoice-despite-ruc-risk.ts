import { reviewRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { approveInvoice } from '../../use-cases/review/approve-invoice.js';
import { reviewDeps } from '../../use-cases/review/review.factory.js';

export const handler = httpHandler(reviewRoutes.approveInvoiceDespiteRucRisk, ({ caller, path, body }) =>
  approveInvoice(reviewDeps, caller, path, { overrideReason: body.reason }),
);
