import {
  BadRequestError,
  ConflictError,
  COUNT_LIMITS,
  INVOICE_STATUS_LABELS,
  NotFoundError,
  TEXT_LIMITS,
  cleanMessageText,
  conversationAfter,
  messageExcerpt,
  messageIdOf,
  notificationAbout,
  sideOf,
  type ConversationEvent,
  type FileLink,
  type Invoice,
  type InvoiceMessage,
  type InvoiceMessages,
  type InvoiceStatus,
  type MessageAttachment,
  type NotificationEvent,
  type PostedMessage,
  type RouteBody,
  type RoutePath,
  type RouteQuery,
  type Routes,
  type WaitingConversations,
  INVOICE_STATUSES,
} from '@portal/shared';
import type { Caller } from '../http/caller.js';
import type { InvoiceStore, StoredInvoice } from '../repositories/invoice-store.js';
import { messageItem, type Conversations } from '../repositories/conversations.js';
import { outgoingItem, outgoingMessage, type Outgoing, type OutgoingMessage } from '../repositories/outgoing.js';
import { uploadUseItems } from '../repositories/upload-uses.js';
import { callerStamp } from './audit-stamp.js';
import { loadInvoiceInReach, retryingInvoiceChange, type InvoicePath } from './invoice-access.js';

export type PostMessageBody = RouteBody<Routes['postInvoiceMessage']>;
export type MessageFilePath = RoutePath<Routes['getInvoiceMessageFile']>;
export type MessageFileQuery = RouteQuery<Routes['getInvoiceMessageFile']>;

/** An invoice can be observed while it is still in course: not once rejected or paid. */
export const OBSERVABLE: readonly InvoiceStatus[] = ['PENDING', 'COMPLETED', 'ACCEPTED', 'SCHEDULED'];

export interface ConversationDeps {
  readonly store: Pick<InvoiceStore, 'get' | 'commit'>;
  readonly conversations: Pick<Conversations, 'messagesOf' | 'message' | 'waitingCount'>;
  /** Sends the notice a message committed with itself; the outbox sweeper sends it again if this fails. */
  readonly outgoing: Pick<Outgoing, 'deliver'>;
  /**
   * uploads.verifyMessageAttachment: an upload of one of `tenants`, checked by its bytes (refused: deleted). Only
   * posting needs it: without it, attaching a file is a wiring fault (500), never an unchecked key.
   */
  readonly verifyAttachment?: (
    key: string,
    tenants: readonly string[],
    position: number,
  ) => Promise<{ key: string; size: number; contentType: string; fileName: string }>;
  /** uploads.downloadLink: a short link that downloads the file (only the attachment's link needs it). */
  readonly downloadLink?: (key: string, fileName: string) => Promise<FileLink>;
  /** The group's companies (taxIds): an administrator's header counts over all of them. */
  readonly allCompanies?: () => Promise<string[]>;
  readonly clock: () => Date;
  /** Eight lower-case hex digits: a message id's random part. */
  readonly randomHex: () => string;
}

/** The name a message shows for its author. */
function authorNameOf(caller: Caller): string {
  const name = `${caller.firstName} ${caller.lastName}`.trim();
  return name || caller.email || caller.sub;
}

/** The tenants whose uploads a caller may attach to a message of this invoice: its own side's. */
function tenantsOf(caller: Caller, invoice: Invoice): string[] {
  if (caller.level === 'SUPPLIER') return [invoice.supplierId];
  return caller.level === 'ADMIN' ? [invoice.client, 'admin'] : [invoice.client];
}

/** `now`, or a millisecond after `last` when the clock is not past it (another writer's clock ran ahead). */
function timeAfter(now: Date, last: string | undefined): Date {
  const floor = last ? Date.parse(last) + 1 : Number.NEGATIVE_INFINITY;
  return now.getTime() >= floor ? now : new Date(floor);
}

function cleanText(raw: string): string {
  const cleaned = cleanMessageText(raw);
  if (cleaned.ok) return cleaned.text;
  if (cleaned.problem === 'EMPTY') throw new BadRequestError('ERROR_MESSAGE_EMPTY', { parameter: 'text' });
  throw new BadRequestError('ERROR_MESSAGE_TOO_LONG', { parameter: 'text', max: TEXT_LIMITS.message });
}

/**
 * Messages on an invoice (issue 23, docs/adr/0031-messages-on-an-invoice.md). Every write is one commit of the
 * invoice (its mark and conversation summary, version-guarded) with the message item, the notice to the other side
 * (outbox) and the upload-use items of its attachments; the header's counters move in the same transaction.
 */
export function makeConversationUseCases(deps: ConversationDeps) {
  const { store, clock } = deps;

  /**
   * The one place the conversation commits an invoice: its mark and summary as `conversationAfter` moves them, with
   * whatever the event writes alongside.
   */
  function commitConversation(
    caller: Caller,
    before: StoredInvoice,
    event: ConversationEvent,
    whileStatusIn: readonly InvoiceStatus[],
    alsoPut: readonly Record<string, unknown>[],
    text: string | null,
  ): Promise<StoredInvoice> {
    const { version: _version, ...plain } = before;
    const state = conversationAfter(
      { observation: before.observation ?? null, conversation: before.conversation ?? null },
      event,
    );
    const after: Invoice = { ...plain, observation: state.observation, conversation: state.conversation };
    // The trail (invoice-audit.ts) records who wrote, which kind of change, and the message's text.
    const action =
      event.kind === 'OBSERVE' ? 'OBSERVED' : event.kind === 'CLEAR' ? 'OBSERVATION_CLEARED' : 'MESSAGE_POSTED';
    return store.commit({ before, after, whileStatusIn, alsoPut, audit: callerStamp(caller, action, text) });
  }

  async function checkAttachments(caller: Caller, invoice: Invoice, keys: readonly string[]) {
    const unique = [...new Set(keys)];
    const attachments: MessageAttachment[] = [];
    const verify = deps.verifyAttachment;
    if (!verify) {
      if (unique.length > 0) throw new Error('verifyAttachment is not wired: attachments cannot be checked');
      return attachments;
    }
    for (const [index, key] of unique.entries()) {
      const verified = await verify(key, tenantsOf(caller, invoice), index + 1);
      attachments.push({
        key: verified.key,
        fileName: verified.fileName,
        contentType: verified.contentType,
        size: verified.size,
      });
    }
    return attachments;
  }

  /** Posts a message (kind MESSAGE) or marks the invoice observed with it (kind OBSERVE). */
  async function write(
    caller: Caller,
    path: InvoicePath,
    body: PostMessageBody,
    kind: 'MESSAGE' | 'OBSERVE',
  ): Promise<PostedMessage> {
    const text = cleanText(body.text);
    const first = await loadInvoiceInReach(store, caller, path);
    if (kind === 'OBSERVE' && !OBSERVABLE.includes(first.status)) {
      throw new ConflictError('ERROR_OBSERVE_INVOICE_CLOSED', {
        status: INVOICE_STATUS_LABELS[first.status].toLowerCase(),
      });
    }
    const attachments = await checkAttachments(caller, first, body.attachments);
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
      const stored = await commitConversation(
        caller,
        before,
        event,
        kind === 'OBSERVE' ? OBSERVABLE : INVOICE_STATUSES,
        [
          messageItem(before, message),
          outgoingItem(notice),
          ...uploadUseItems(
            attachments.map((file) => file.key),
            before,
            now,
          ),
        ],
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

  async function list(caller: Caller, path: InvoicePath): Promise<InvoiceMessages> {
    const invoice = await loadInvoiceInReach(store, caller, path);
    return {
      items: await deps.conversations.messagesOf(invoice),
      observation: invoice.observation ?? null,
      conversation: invoice.conversation ?? null,
    };
  }

  return {
    list,

    post: (caller: Caller, path: InvoicePath, body: PostMessageBody) => write(caller, path, body, 'MESSAGE'),

    observe: (caller: Caller, path: InvoicePath, body: PostMessageBody) => write(caller, path, body, 'OBSERVE'),

    /** Staff take the mark off (nothing is asked of the supplier any more); 409 when it is not observed. */
    async clear(caller: Caller, path: InvoicePath): Promise<InvoiceMessages> {
      await retryingInvoiceChange(async () => {
        const before = await loadInvoiceInReach(store, caller, path);
        if (!before.observation) throw new ConflictError('ERROR_INVOICE_NOT_OBSERVED');
        await commitConversation(caller, before, { kind: 'CLEAR' }, INVOICE_STATUSES, [], null);
      });
      return list(caller, path);
    },

    /** A link that downloads one attachment of one message of an invoice within reach; else 404. */
    async fileLink(caller: Caller, path: MessageFilePath, query: MessageFileQuery): Promise<FileLink> {
      const invoice = await loadInvoiceInReach(store, caller, path);
      const message = await deps.conversations.message(invoice, path.messageId);
      if (!message) throw new NotFoundError('ERROR_MESSAGE_NOT_FOUND');
      const file = message.attachments[query.index];
      if (!file) throw new NotFoundError('ERROR_FILE_NOT_FOUND');
      if (!deps.downloadLink) throw new Error('downloadLink is not wired: no file link can be made');
      return deps.downloadLink(file.key, file.fileName);
    },

    /**
     * The header's count: a supplier's invoices whose conversation waits on it (observed, or staff wrote last), over
     * its RUCs; staff's, invoices of their companies whose supplier wrote last. One read of a counter per RUC or
     * company (an administrator, who reaches every company: the group's companies).
     */
    async waitingCount(caller: Caller): Promise<WaitingConversations> {
      const owners =
        caller.level === 'ADMIN' && deps.allCompanies
          ? [...caller.taxIds, ...(await deps.allCompanies())]
          : caller.taxIds;
      const count = await deps.conversations.waitingCount(sideOf(caller.level), owners);
      return { count };
    },
  };
}

export type ConversationUseCases = ReturnType<typeof makeConversationUseCases>;
