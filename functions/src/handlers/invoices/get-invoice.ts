import { reviewRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { getInvoice } from '../../use-cases/review/get-invoice.js';
import { reviewDeps } from '../../use-cases/review/review.factory.js';

export const handler = httpHandler(reviewRoutes.getInvoice, ({ caller, path }) => getInvoice(reviewDeps, caller, path));
