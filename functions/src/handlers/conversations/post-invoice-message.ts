import { conversationRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { conversationFilesDeps } from '../../use-cases/conversations/conversation-files.factory.js';
import { postInvoiceMessage } from '../../use-cases/conversations/post-invoice-message.js';

export const handler = httpHandler(conversationRoutes.postInvoiceMessage, ({ caller, path, body }) =>
  postInvoiceMessage(conversationFilesDeps, caller, path, body),
);
