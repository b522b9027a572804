import type { Level } from '../domain.js';
import { TEXT_LIMITS } from '../limits.js';
import type { ConversationSide, ConversationSummary, InvoiceObservation } from '../schemas/conversations.js';

/**
 * The rules of an invoice's conversation (docs/adr/0031-messages-on-an-invoice.md): who writes for which
 * side, what a message's text may be, and how a message, an observation or its clearing moves the invoice's mark and
 * summary, and with it the header's counts of conversations waiting on each side.
 */

/** A supplier writes for the supplier; managers and admins for the group's staff. */
export function sideOf(level: Level): ConversationSide {
  return level === 'SUPPLIER' ? 'SUPPLIER' : 'STAFF';
}

export const otherSide = (side: ConversationSide): ConversationSide => (side === 'SUPPLIER' ? 'STAFF' : 'SUPPLIER');

// C0 and C1 controls but tab and line feed; carriage returns become line feeds first. Bidirectional overrides
// and isolates too: they would make the text read differently from what it holds.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A message's text as stored: line endings made \n, control characters removed, trimmed; 1..TEXT_LIMITS.message
 * characters (code points) or refused. Markup is not refused: it is stored as the plain text it is, and shown so.
 */
export function cleanMessageText(
  raw: string,
): { ok: true; text: string } | { ok: false; problem: 'EMPTY' | 'TOO_LONG' } {
  const text = raw.replace(/\r\n?/g, '\n').replace(CONTROL, '').trim();
  if (text.length === 0) return { ok: false, problem: 'EMPTY' };
  if (Array.from(text).length > TEXT_LIMITS.message) return { ok: false, problem: 'TOO_LONG' };
  return { ok: true, text };
}

/** The state of an invoice's conversation that its item keeps. */
export interface ConversationState {
  readonly observation: InvoiceObservation | null;
  readonly conversation: ConversationSummary | null;
}

/** What happened to the conversation. */
export type ConversationEvent =
  | { readonly kind: 'MESSAGE'; readonly side: ConversationSide; readonly at: string }
  | { readonly kind: 'OBSERVE'; readonly at: string; readonly by: string; readonly reason: string }
  | { readonly kind: 'CLEAR' };

/**
 * The mark and summary after an event:
 * - a message counts, and the conversation then waits on the other side; the supplier's answer clears the mark;
 * - staff's observation is a staff message that marks the invoice (kept since the first mark if marked again);
 * - staff clearing the mark also ends the wait on the supplier (nothing is asked of it any more).
 */
export function conversationAfter(before: ConversationState, event: ConversationEvent): ConversationState {
  const summary = before.conversation;
  if (event.kind === 'CLEAR') {
    return {
      observation: null,
      conversation: summary && summary.waitingOn === 'SUPPLIER' ? { ...summary, waitingOn: null } : summary,
    };
  }
  const side: ConversationSide = event.kind === 'OBSERVE' ? 'STAFF' : event.side;
  const conversation: ConversationSummary = {
    messageCount: (summary?.messageCount ?? 0) + 1,
    lastMessageAt: event.at,
    lastMessageSide: side,
    waitingOn: otherSide(side),
  };
  if (event.kind === 'OBSERVE') {
    const since = before.observation?.since ?? event.at;
    return { observation: { since, by: event.by, reason: event.reason }, conversation };
  }
  return { observation: side === 'SUPPLIER' ? null : before.observation, conversation };
}

/** Whose header counts an invoice: the supplier's RUC when it waits on the supplier, else the company. */
export interface WaitingOwner {
  readonly side: ConversationSide;
  readonly owner: string;
}

/**
 * The moves of the header's counters (one per side and owner) between two states of one invoice: -1 where it
 * waited, +1 where it waits now; nothing when the wait did not move.
 */
export function waitingCounterDeltas(
  invoice: { readonly supplierId: string; readonly client: string },
  before: ConversationSummary | null | undefined,
  after: ConversationSummary | null | undefined,
): (WaitingOwner & { delta: 1 | -1 })[] {
  const ownerOf = (side: ConversationSide): WaitingOwner => ({
    side,
    owner: side === 'SUPPLIER' ? invoice.supplierId : invoice.client,
  });
  const was = before?.waitingOn ?? null;
  const now = after?.waitingOn ?? null;
  if (was === now) return [];
  return [
    ...(was ? [{ ...ownerOf(was), delta: -1 as const }] : []),
    ...(now ? [{ ...ownerOf(now), delta: 1 as const }] : []),
  ];
}

/** The first words of a message for a notification (one line, at most 200 characters). */
export function messageExcerpt(text: string, max = 200): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(line);
  return chars.length <= max
    ? line
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/**
 * A message's id: its time (compact, sortable) and a random suffix, so that the messages of an invoice sort by
 * time under its partition (`MSG#{id}`) and an id names one message: 20261126T190455123Z-1a2b3c4d.
 */
export function messageIdOf(at: Date, random: string): string {
  return `${at.toISOString().replace(/[-:.]/g, '')}-${random}`;
}

export const MESSAGE_ID_PATTERN = /^\d{8}T\d{9}Z-[0-9a-f]{8}$/;
