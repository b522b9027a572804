import type { TransactItem as TransactWriteItem } from '../../repositories/transaction.js';
import {
  ConflictError,
  INVOICE_TYPE_LABELS,
  amountToPayOf,
  formatMoney,
  isAccepted,
  originalAmounts,
} from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import type { StoredInvoice } from '../../repositories/invoice-store.js';
import { callerStamp } from '../audit-stamp.js';
import { originalRefOf } from './linked-invoices.js';
import type { ReviewDeps } from './review-deps.js';

/**
 * What a note's approval writes to its original (a note adjusts its original): the original must be approved itself,
 * a credit note may take at most what is left to pay, and the original's amount to pay moves in the note's
 * transaction, conditioned on the original as read. A note whose original is not in the portal conditions on its
 * absence, so that an original arriving meanwhile is not left without it.
 */
export async function noteApprovalWrites(
  deps: Pick<ReviewDeps, 'store' | 'clock' | 'noteLinks'>,
  note: StoredInvoice,
  caller: Caller,
): Promise<readonly TransactWriteItem[]> {
  const { store, noteLinks } = deps;
  const ref = originalRefOf(note);
  if (!ref) return [];
  const original = await store.get(ref.supplierId, ref.type, ref.id);
  if (!original) return [noteLinks.writes.originalAbsent(ref)];
  // A note of another company's document was never linked to it (intake refuses those; older data may hold one).
  if (original.client !== note.client || note.originalInPortal !== true) return [];
  if (!isAccepted(original.status)) throw new ConflictError('ERROR_NOTE_ORIGINAL_NOT_APPROVED', { original: ref.id });
  const { notes } = await noteLinks.notesOf(ref);
  const others = notes.filter(
    (linked) => linked.originalInPortal === true && !(linked.type === note.type && linked.id === note.id),
  );
  const before = originalAmounts(original.amount, others);
  if (note.type === 'NOTA_DE_CREDITO' && Math.round(note.amount * 100) > Math.round(before.amountToPay * 100)) {
    throw new ConflictError('ERROR_CREDIT_NOTE_EXCEEDS_AMOUNT_TO_PAY', {
      amount: formatMoney(note.amount, note.currency),
      original: ref.id,
      left: formatMoney(amountToPayOf(original.amount, before.noteAdjustments), original.currency),
    });
  }
  const after = originalAmounts(original.amount, [...others, { ...note, status: 'ACCEPTED' }]);
  // The original changes too: its trail records what the note did to it, in the same transaction.
  const stamp = callerStamp(caller, 'NOTE_APPLIED', `${INVOICE_TYPE_LABELS[note.type]} ${note.id}`);
  return [
    noteLinks.writes.originalAmounts(original, after),
    noteLinks.writes.originalAudit(original, { ...original, ...after }, stamp, deps.clock().toISOString()),
  ];
}
