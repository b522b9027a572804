import { reviewRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { invoiceCompletion } from '../../use-cases/invoice-completion.factory.js';

export const handler = httpHandler(reviewRoutes.updateInvoice, ({ caller, path, body }) =>
  invoiceCompletion.update(caller, path, body),
);
