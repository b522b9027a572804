import {
  BadRequestError,
  TEXT_LIMITS,
  cleanMessageText,
  conversationAfter,
  type ConversationEvent,
  type Invoice,
  type InvoiceStatus,
  type MessageAttachment,
} from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import type { StoredInvoice } from '../../repositories/invoice-store.js';
import { callerStamp } from '../audit-stamp.js';
import type { ConversationDeps } from './conversation-deps.js';

/** The name a message shows for its author. */
export function authorNameOf(caller: Caller): string {
  const name = `${caller.firstName} ${caller.lastName}`.trim();
  return name || caller.email || caller.sub;
}

/** The tenants whose uploads a caller may attach to a message of this invoice: its own side's. */
function tenantsOf(caller: Caller, invoice: Invoice): string[] {
  if (caller.level === 'SUPPLIER') return [invoice.supplierId];
  return caller.level === 'ADMIN' ? [invoice.client, 'admin'] : [invoice.client];
}

/** `now`, or a millisecond after `last` when the clock is not past it (another writer's clock ran ahead). */
export function timeAfter(now: Date, last: string | undefined): Date {
  const floor = last ? Date.parse(last) + 1 : Number.NEGATIVE_INFINITY;
  return now.getTime() >= floor ? now : new Date(floor);
}

export function cleanText(raw: string): string {
  const cleaned = cleanMessageText(raw);
  if (cleaned.ok) return cleaned.text;
  if (cleaned.problem === 'EMPTY') throw new BadRequestError('ERROR_MESSAGE_EMPTY', { parameter: 'text' });
  throw new BadRequestError('ERROR_MESSAGE_TOO_LONG', { parameter: 'text', max: TEXT_LIMITS.message });
}

/**
 * The one place the conversation commits an invoice: its mark and summary as `conversationAfter` moves them, with
 * whatever the event writes alongside.
 */
export function commitConversation(
  deps: Pick<ConversationDeps, 'store'>,
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
  return deps.store.commit({ before, after, whileStatusIn, alsoPut, audit: callerStamp(caller, action, text) });
}

/** The files a message attaches, each an upload of the caller's side checked by its bytes (refused: deleted). */
export async function checkAttachments(
  deps: Pick<ConversationDeps, 'verifyAttachment'>,
  caller: Caller,
  invoice: Invoice,
  keys: readonly string[],
): Promise<MessageAttachment[]> {
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
