import { reviewRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { disapproveInvoice } from '../../use-cases/review/disapprove-invoice.js';
import { reviewDeps } from '../../use-cases/review/review.factory.js';

export const handler = httpHandler(reviewRoutes.disapproveInvoice, ({ caller, path, query, body }) =>
  disapproveInvoice(reviewDeps, caller, path, query, body),
);
