import { conversationRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { conversationDeps } from '../../use-cases/conversations/conversations.factory.js';
import { listInvoiceMessages } from '../../use-cases/conversations/list-invoice-messages.js';

export const handler = httpHandler(conversationRoutes.listInvoiceMessages, ({ caller, path }) =>
  listInvoiceMessages(conversationDeps, caller, path),
);
