import type { InvoiceStatus, InvoiceType } from '../domain.js';
import type { NoteAdjustments } from '../schemas/invoices.js';

/**
 * How an original's notes change what is paid for it (docs/ap-notes-and-risk.md): amount − accepted
 * credit notes + accepted debit notes. A note counts once it is accepted — approved by the company, whatever SAP's
 * payment run did since (ACCEPTED, SCHEDULED, PAID); a note under review or rejected changes nothing.
 */

/** The statuses in which a document counts as accepted by the company. */
export const ACCEPTED_STATUSES = ['ACCEPTED', 'SCHEDULED', 'PAID'] as const satisfies readonly InvoiceStatus[];

export function isAccepted(status: InvoiceStatus): boolean {
  return (ACCEPTED_STATUSES as readonly InvoiceStatus[]).includes(status);
}

/** What a note is, as far as its original's amount to pay needs to know. */
export interface NoteFacts {
  readonly type: InvoiceType;
  readonly status: InvoiceStatus;
  readonly amount: number;
}

const cents = (amount: number) => Math.round(amount * 100);

/** What an original's accepted notes credit and debit, to the cent. */
export function noteAdjustmentsOf(notes: readonly NoteFacts[]): NoteAdjustments {
  let credited = 0;
  let debited = 0;
  for (const note of notes) {
    if (!isAccepted(note.status)) continue;
    if (note.type === 'NOTA_DE_CREDITO') credited += cents(note.amount);
    else if (note.type === 'NOTA_DE_DEBITO') debited += cents(note.amount);
  }
  return { credited: credited / 100, debited: debited / 100 };
}

/** The amount to pay of an original: its amount − what accepted credit notes take + what debit notes add. */
export function amountToPayOf(amount: number, adjustments: NoteAdjustments | null | undefined): number {
  if (!adjustments) return amount;
  return (cents(amount) - cents(adjustments.credited) + cents(adjustments.debited)) / 100;
}

/** The fields an original carries for its notes, as its intake and every note approval write them. */
export function originalAmounts(
  amount: number,
  notes: readonly NoteFacts[],
): { noteAdjustments: NoteAdjustments; amountToPay: number } {
  const noteAdjustments = noteAdjustmentsOf(notes);
  return { noteAdjustments, amountToPay: amountToPayOf(amount, noteAdjustments) };
}
