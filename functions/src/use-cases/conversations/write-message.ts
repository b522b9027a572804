import {
  COUNT_LIMITS,
  ConflictError,
  INVOICE_STATUSES,
  INVOICE_STATUS_LABELS,
  messageExcerpt,
  messageIdOf,
  notificationAbout,
  sideOf,
  type ConversationEvent,
  type InvoiceMessage,
  type NotificationEvent,
  type PostedMessage,
} from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { messageItem } from '../../repositories/conversations.js';
import { outgoingItem, outgoingMessage, type OutgoingMessage } from '../../repositories/outgoing.js';
import { uploadUseItems } from '../../repositories/upload-uses.js';
import { loadInvoiceInReach, retryingInvoiceChange, type InvoicePath } from '../invoice-access.js';
import { OBSERVABLE, type ConversationDeps, type PostMessageBody } from './conversation-deps.js';
import { authorNameOf, checkAttachments, cleanText, commitConversation, timeAfter } from './conversation-steps.js';

export type WriteMessageDeps = Pick<
  ConversationDeps,
  'store' | 'outgoing' | 'verifyAttachment' | 'clock' | 'randomHex'
>;

/**
 * Posts a message (kind MESSAGE) or marks the invoice observed with it (kind OBSERVE), docs/adr/0031: one commit of
 * the invoice (its mark and conversation summary, version-guarded) with the message item, the notice to the other
 * side (outbox) and the upload-use items of its attachments; the header's counters move in the same transaction.
 */
export async function writeMessage(
  deps: WriteMessageDeps,
  caller: Caller,
  path: InvoicePath,
  body: PostMessageBody,
  kind: 'MESSAGE' | 'OBSERVE',
): Promise<PostedMessage> {
  const { store, clock } = deps;
  const text = cleanText(body.text);
  const first = await loadInvoiceInReach(store, caller, path);
  if (kind === 'OBSERVE' && !OBSERVABLE.includes(first.status)) {
    throw new ConflictError('ERROR_OBSERVE_INVOICE_CLOSED', {
      status: INVOICE_STATUS_LABELS[first.status].toLowerCase(),
    });
  }
  const attachments = await checkAttachments(deps, caller, first, body.attachments);
  const side = sideOf(caller.level);
  const noticeEvent: NotificationEvent =
    kind === 'OBSERVE'
      ? 'INVOICE_OBSERVED'
      : side === 'STAFF'
        ? 'INVOICE_MESSAGE_FROM_STAFF'
        : 'INVOICE_MESSAGE_FROM_SUPPLIER';
  const random = deps.randomHex();

  let attempt = 0;
  const committed = await retryingInvoiceChange(async () => {
    const before = attempt++ === 0 ? first : await loadInvoiceInReach(store, caller, path);
    if ((before.conversation?.messageCount ?? 0) >= COUNT_LIMITS.messagesPerInvoice) {
      throw new ConflictError('ERROR_MESSAGE_LIMIT_REACHED', { limit: COUNT_LIMITS.messagesPerInvoice });
    }
    // Timed at each attempt, and after the last message committed: the conversation's order (its ids) is the order
    // its commits took, so the summary's last message is the list's last, whatever the clocks of two writers.
    const now = timeAfter(clock(), before.conversation?.lastMessageAt);
    const message: InvoiceMessage = {
      id: messageIdOf(now, random),
      at: now.toISOString(),
      authorName: authorNameOf(caller),
      authorRole: caller.level,
      side,
      text,
      attachments,
      observation: kind === 'OBSERVE',
    };
    const event: ConversationEvent =
      kind === 'OBSERVE'
        ? { kind: 'OBSERVE', at: message.at, by: message.authorName, reason: text }
        : { kind: 'MESSAGE', side, at: message.at };
    const notice: OutgoingMessage = outgoingMessage(
      'notifications',
      notificationAbout(noticeEvent, before, messageExcerpt(text), now),
      now,
    );
    const uses = uploadUseItems(
      attachments.map((file) => file.key),
      before,
      now,
    );
    const stored = await commitConversation(
      deps,
      caller,
      before,
      event,
      kind === 'OBSERVE' ? OBSERVABLE : INVOICE_STATUSES,
      [messageItem(before, message), outgoingItem(notice), ...uses],
      text,
    );
    return { stored, notice, message };
  });
  await deps.outgoing.deliver([committed.notice]);
  return {
    message: committed.message,
    observation: committed.stored.observation ?? null,
    conversation: committed.stored.conversation ?? null,
  };
}
