import { NOTE_ORIGINAL_TYPES, isNoteType, type Invoice, type LinkedInvoice } from '@portal/shared';
import type { InvoiceStore, StoredInvoice } from '../../repositories/invoice-store.js';
import type { InvoiceRef, LinkedNote, NoteLinks } from '../../repositories/note-links.js';

/** What the other's detail shows of a note or an original. */
export function linkedOf(invoice: Invoice): LinkedInvoice {
  return {
    supplierId: invoice.supplierId,
    type: invoice.type,
    id: invoice.id,
    status: invoice.status,
    currency: invoice.currency,
    amount: invoice.amount,
    issuedAt: invoice.issuedAt,
    amountToPay: invoice.amountToPay ?? null,
    noteReason: invoice.noteReason ?? null,
    operationType: invoice.operationType,
    purchaseOrders: invoice.purchaseOrders,
  };
}

/** The key parts of a note's original. */
export function originalRefOf(note: Invoice): InvoiceRef | null {
  const reference = note.billingReference;
  return isNoteType(note.type) && reference
    ? { supplierId: note.supplierId, type: reference.type, id: reference.id }
    : null;
}

/** A note's original in the portal, of the note's company (the only one a note may modify). */
export async function originalOf(store: Pick<InvoiceStore, 'get'>, note: Invoice): Promise<StoredInvoice | null> {
  const ref = originalRefOf(note);
  const original = ref ? await store.get(ref.supplierId, ref.type, ref.id) : null;
  return original && original.client === note.client ? original : null;
}

/**
 * An original's notes of its own company, oldest received first; none for a type that has none, and for an original
 * no note ever linked to. Every write that links a note to an original in the portal gives it `noteAdjustments` (the
 * note's intake, in the transaction that links it; the original's intake, when notes came before it; each note's
 * approval), conditioned on the notes as read (note-intake.ts), so an original without them has no notes to read
 * (docs/data-design.md, "Notes and their original"). Most invoices have none: no Query beside their detail.
 */
export async function notesOf(noteLinks: Pick<NoteLinks, 'notesOf'>, invoice: Invoice): Promise<readonly LinkedNote[]> {
  if (!(NOTE_ORIGINAL_TYPES as readonly string[]).includes(invoice.type) || invoice.noteAdjustments == null) return [];
  const { notes } = await noteLinks.notesOf(invoice);
  return notes.filter((note) => note.client === invoice.client);
}
