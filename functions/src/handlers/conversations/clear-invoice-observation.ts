import { conversationRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { conversationDeps } from '../../use-cases/conversations/conversations.factory.js';
import { clearInvoiceObservation } from '../../use-cases/conversations/clear-invoice-observation.js';

export const handler = httpHandler(conversationRoutes.clearInvoiceObservation, ({ caller, path }) =>
  clearInvoiceObservation(conversationDeps, caller, path),
);
