import { reviewRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { invoiceHistory } from '../../use-cases/invoice-history.factory.js';

export const handler = httpHandler(reviewRoutes.listInvoiceHistory, ({ caller, path, query }) =>
  invoiceHistory.list(caller, path, query),
);
