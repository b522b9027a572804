import type { Caller } from '../../http/caller.js';
import type { InvoicePath } from '../invoice-access.js';
import { clearInvoiceObservation } from './clear-invoice-observation.js';
import type { ConversationDeps, MessageFilePath, MessageFileQuery, PostMessageBody } from './conversation-deps.js';
import { countWaitingConversations } from './count-waiting-conversations.js';
import { invoiceMessageFile } from './invoice-message-file.js';
import { listInvoiceMessages } from './list-invoice-messages.js';
import { observeInvoice } from './observe-invoice.js';
import { postInvoiceMessage } from './post-invoice-message.js';

/** The conversation's use cases bound to one set of ports, as the tests call them (the handlers import each one). */
export function conversationCalls(deps: ConversationDeps) {
  return {
    list: (caller: Caller, path: InvoicePath) => listInvoiceMessages(deps, caller, path),
    post: (caller: Caller, path: InvoicePath, body: PostMessageBody) => postInvoiceMessage(deps, caller, path, body),
    observe: (caller: Caller, path: InvoicePath, body: PostMessageBody) => observeInvoice(deps, caller, path, body),
    clear: (caller: Caller, path: InvoicePath) => clearInvoiceObservation(deps, caller, path),
    fileLink: (caller: Caller, path: MessageFilePath, query: MessageFileQuery) =>
      invoiceMessageFile(deps, caller, path, query),
    waitingCount: (caller: Caller) => countWaitingConversations(deps, caller),
  };
}
