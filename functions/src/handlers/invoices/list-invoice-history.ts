import { reviewRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { listInvoiceHistory } from '../../use-cases/invoice-history.js';
import { invoiceHistoryDeps } from '../../use-cases/invoice-history.factory.js';

export const handler = httpHandler(reviewRoutes.listInvoiceHistory, ({ caller, path, query }) =>
  listInvoiceHistory(invoiceHistoryDeps, caller, path, query),
);
