import { reviewRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { completionDeps } from '../../use-cases/review/completion.factory.js';
import { updateInvoice } from '../../use-cases/review/update-invoice.js';

export const handler = httpHandler(reviewRoutes.updateInvoice, ({ caller, path, body }) =>
  updateInvoice(completionDeps, caller, path, body),
);
