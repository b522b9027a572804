import { describe, expect, it } from 'vitest';
import { TEXT_LIMITS } from '../limits.js';
import {
  MESSAGE_ID_PATTERN,
  cleanMessageText,
  conversationAfter,
  messageExcerpt,
  messageIdOf,
  sideOf,
  waitingCounterDeltas,
  type ConversationState,
} from './conversations.js';

const NONE: ConversationState = { observation: null, conversation: null };
const invoice = { supplierId: '20100070970', client: '20603415800' };

describe('the text of a message', () => {
  it('keeps markup as the plain text it is, trimmed, without control or direction-override characters', () => {
    const hostile = '<script>alert(1)</script><img src=x onerror="alert(2)">';
    expect(cleanMessageText(`  ${hostile}\u0000\u0007\u202e\u2066 \r\n`)).toEqual({ ok: true, text: hostile });
    expect(cleanMessageText('Línea 1\r\nLínea 2\tfin')).toEqual({ ok: true, text: 'Línea 1\nLínea 2\tfin' });
  });

  it('refuses an empty message, and one longer than the limit in characters (not bytes)', () => {
    expect(cleanMessageText(' \n\t\u0000 ')).toEqual({ ok: false, problem: 'EMPTY' });
    expect(cleanMessageText('ñ'.repeat(TEXT_LIMITS.message))).toMatchObject({ ok: true });
    expect(cleanMessageText('😀'.repeat(TEXT_LIMITS.message))).toMatchObject({ ok: true });
    expect(cleanMessageText('a'.repeat(TEXT_LIMITS.message + 1))).toEqual({ ok: false, problem: 'TOO_LONG' });
  });

  it('is quoted in a notification by its first words, on one line', () => {
    expect(messageExcerpt('Falta la\n\nguía')).toBe('Falta la guía');
    const long = messageExcerpt('palabra '.repeat(100));
    expect(Array.from(long)).toHaveLength(200);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('who writes for which side', () => {
  it('puts suppliers on their side and managers and admins on the staff side', () => {
    expect(sideOf('SUPPLIER')).toBe('SUPPLIER');
    expect(sideOf('MANAGER')).toBe('STAFF');
    expect(sideOf('ADMIN')).toBe('STAFF');
  });

  it('names messages by time, so that they sort as written', () => {
    const a = messageIdOf(new Date('2026-11-26T19:04:55.123Z'), '0a1b2c3d');
    const b = messageIdOf(new Date('2026-11-26T19:04:55.124Z'), '00000000');
    expect(a).toBe('20261126T190455123Z-0a1b2c3d');
    expect(MESSAGE_ID_PATTERN.test(a)).toBe(true);
    expect(a < b).toBe(true);
  });
});

describe('the Observada mark and whom the conversation waits on', () => {
  const at = (minute: number) => `2026-11-26T19:${String(minute).padStart(2, '0')}:00.000Z`;

  it('marks the invoice with staff observation, waiting on the supplier, whose answer clears it', () => {
    const observed = conversationAfter(NONE, { kind: 'OBSERVE', at: at(1), by: 'Carmen', reason: 'Falta la guía' });
    expect(observed).toEqual({
      observation: { since: at(1), by: 'Carmen', reason: 'Falta la guía' },
      conversation: { messageCount: 1, lastMessageAt: at(1), lastMessageSide: 'STAFF', waitingOn: 'SUPPLIER' },
    });
    const answered = conversationAfter(observed, { kind: 'MESSAGE', side: 'SUPPLIER', at: at(2) });
    expect(answered).toEqual({
      observation: null,
      conversation: { messageCount: 2, lastMessageAt: at(2), lastMessageSide: 'SUPPLIER', waitingOn: 'STAFF' },
    });
  });

  it('keeps the mark through more staff messages, and since its first time when marked again', () => {
    const observed = conversationAfter(NONE, { kind: 'OBSERVE', at: at(1), by: 'Carmen', reason: 'Falta la guía' });
    const more = conversationAfter(observed, { kind: 'MESSAGE', side: 'STAFF', at: at(2) });
    expect(more.observation).toEqual(observed.observation);
    const again = conversationAfter(more, { kind: 'OBSERVE', at: at(3), by: 'Jorge', reason: 'Y la OC' });
    expect(again.observation).toEqual({ since: at(1), by: 'Jorge', reason: 'Y la OC' });
    expect(again.conversation?.messageCount).toBe(3);
  });

  it('ends the wait on the supplier when staff take the mark off, not a wait on staff', () => {
    const observed = conversationAfter(NONE, { kind: 'OBSERVE', at: at(1), by: 'Carmen', reason: 'Falta la guía' });
    expect(conversationAfter(observed, { kind: 'CLEAR' })).toEqual({
      observation: null,
      conversation: { ...observed.conversation!, waitingOn: null },
    });
    const supplierWrote = conversationAfter(NONE, { kind: 'MESSAGE', side: 'SUPPLIER', at: at(1) });
    expect(conversationAfter(supplierWrote, { kind: 'CLEAR' })).toEqual(supplierWrote);
  });

  it('moves the header counters only when the wait moves, from one side to the other', () => {
    const staffWrote = conversationAfter(NONE, { kind: 'MESSAGE', side: 'STAFF', at: at(1) }).conversation;
    const supplierWrote = conversationAfter(NONE, { kind: 'MESSAGE', side: 'SUPPLIER', at: at(2) }).conversation;
    expect(waitingCounterDeltas(invoice, null, staffWrote)).toEqual([
      { side: 'SUPPLIER', owner: invoice.supplierId, delta: 1 },
    ]);
    expect(waitingCounterDeltas(invoice, staffWrote, supplierWrote)).toEqual([
      { side: 'SUPPLIER', owner: invoice.supplierId, delta: -1 },
      { side: 'STAFF', owner: invoice.client, delta: 1 },
    ]);
    expect(waitingCounterDeltas(invoice, supplierWrote, { ...supplierWrote!, messageCount: 9 })).toEqual([]);
    expect(waitingCounterDeltas(invoice, supplierWrote, { ...supplierWrote!, waitingOn: null })).toEqual([
      { side: 'STAFF', owner: invoice.client, delta: -1 },
    ]);
    expect(waitingCounterDeltas(invoice, undefined, undefined)).toEqual([]);
  });
});
