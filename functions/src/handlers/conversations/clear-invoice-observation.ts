import { conversationRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { conversations } from '../../use-cases/conversations.factory.js';

export const handler = httpHandler(conversationRoutes.clearInvoiceObservation, ({ caller, path }) =>
  conversations.clear(caller, path),
);
