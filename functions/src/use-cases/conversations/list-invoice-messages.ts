import type { InvoiceMessages } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { loadInvoiceInReach, type InvoicePath } from '../invoice-access.js';
import type { ConversationDeps } from './conversation-deps.js';

/** GET …/messages: an invoice's conversation within reach, with its mark and summary. */
export async function listInvoiceMessages(
  deps: Pick<ConversationDeps, 'store' | 'conversations'>,
  caller: Caller,
  path: InvoicePath,
): Promise<InvoiceMessages> {
  const invoice = await loadInvoiceInReach(deps.store, caller, path);
  return {
    items: await deps.conversations.messagesOf(invoice),
    observation: invoice.observation ?? null,
    conversation: invoice.conversation ?? null,
  };
}
