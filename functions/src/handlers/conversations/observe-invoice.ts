import { conversationRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { conversationsWithFiles as conversations } from '../../use-cases/conversation-files.factory.js';

export const handler = httpHandler(conversationRoutes.observeInvoice, ({ caller, path, body }) =>
  conversations.observe(caller, path, body),
);
