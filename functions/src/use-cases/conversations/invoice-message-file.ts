import { NotFoundError, type FileLink } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { loadInvoiceInReach } from '../invoice-access.js';
import type { ConversationDeps, MessageFilePath, MessageFileQuery } from './conversation-deps.js';

/** A link that downloads one attachment of one message of an invoice within reach; else 404. */
export async function invoiceMessageFile(
  deps: Pick<ConversationDeps, 'store' | 'conversations' | 'downloadLink'>,
  caller: Caller,
  path: MessageFilePath,
  query: MessageFileQuery,
): Promise<FileLink> {
  const invoice = await loadInvoiceInReach(deps.store, caller, path);
  const message = await deps.conversations.message(invoice, path.messageId);
  if (!message) throw new NotFoundError('ERROR_MESSAGE_NOT_FOUND');
  const file = message.attachments[query.index];
  if (!file) throw new NotFoundError('ERROR_FILE_NOT_FOUND');
  if (!deps.downloadLink) throw new Error('downloadLink is not wired: no file link can be made');
  return deps.downloadLink(file.key, file.fileName);
}
