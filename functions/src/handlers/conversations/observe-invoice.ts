import { conversationRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { conversationFilesDeps } from '../../use-cases/conversations/conversation-files.factory.js';
import { observeInvoice } from '../../use-cases/conversations/observe-invoice.js';

export const handler = httpHandler(conversationRoutes.observeInvoice, ({ caller, path, body }) =>
  observeInvoice(conversationFilesDeps, caller, path, body),
);
