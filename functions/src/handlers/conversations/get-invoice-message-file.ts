import { conversationRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { conversationFilesDeps } from '../../use-cases/conversations/conversation-files.factory.js';
import { invoiceMessageFile } from '../../use-cases/conversations/invoice-message-file.js';

export const handler = httpHandler(conversationRoutes.getInvoiceMessageFile, ({ caller, path, query }) =>
  invoiceMessageFile(conversationFilesDeps, caller, path, query),
);
