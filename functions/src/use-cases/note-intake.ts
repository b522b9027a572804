import type { TransactItem as TransactWriteItem } from '../repositories/transaction.js';
import {
  BadRequestError,
  COUNT_LIMITS,
  NOTE_ORIGINAL_TYPES,
  NOTE_ORIGINAL_TYPE_CODES,
  checkInvoiceCode,
  isNoteType,
  noteReasonLabel,
  originalAmounts,
  originalTypeOfSeries,
  type BillingReference,
  type Client,
  type Invoice,
  type InvoiceType,
  type NoteOriginalType,
  type NoteReason,
  type RouteBody,
  type Routes,
} from '@portal/shared';
import type { ExistingInvoice, IntakeStore } from '../repositories/intake-store.js';
import type { InvoiceRef, NoteLinks } from '../repositories/note-links.js';

/**
 * The intake of notes and of the documents notes modify (docs/ap-notes-and-risk.md):
 * - a nota de crédito or de débito names its original (type, series, number) and a reason of SUNAT's catálogo 09
 *   (credit) or 10 (debit);
 * - its original, when in the portal, is the same supplier's document issued to the same company in the same
 *   currency; a number the company holds only from another supplier is refused; an original not in the portal is
 *   accepted and the note says so (originalInPortal false) until the original arrives;
 * - the note is linked under its original's key in its own transaction; an original, when it arrives, links the
 *   notes that came before it and starts its amount to pay from those already accepted.
 */

/** What a document says of the document it modifies and why (absent or null for the others). */
export interface NoteDocument {
  readonly billingReference: {
    readonly prefixId: string;
    readonly numericId: string;
    /** Catálogo 01 code of the original ('01' factura, '03' boleta); null when the document does not say. */
    readonly typeCode: string | null;
  } | null;
  readonly noteReason: { readonly code: string | null; readonly description: string | null } | null;
}

/** A note's original and reason, checked. */
export interface CheckedNote {
  readonly original: BillingReference;
  readonly reason: NoteReason;
}

const TYPE_CODE_OF: Record<NoteOriginalType, string> = { FACTURA: '01', BOLETA: '03' };
const NOTE_NAMES: Record<'NOTA_DE_CREDITO' | 'NOTA_DE_DEBITO', string> = {
  NOTA_DE_CREDITO: 'nota de crédito',
  NOTA_DE_DEBITO: 'nota de débito',
};

/** The note fields of the form without XML, as the intake reads a document. */
export function noteOfForm(body: RouteBody<Routes['createInvoiceWithoutXml']>): NoteDocument {
  const reference = body.billingReference;
  return {
    billingReference: reference
      ? { prefixId: reference.prefixId, numericId: reference.numericId, typeCode: TYPE_CODE_OF[reference.type] }
      : null,
    noteReason: body.noteReasonCode
      ? { code: body.noteReasonCode, description: body.noteReasonDescription ?? null }
      : null,
  };
}

/** A note's original and reason as SUNAT's rules and catálogos allow them; null for a document that is no note. */
export function checkNoteDocument(
  document: { readonly type: InvoiceType } & Partial<NoteDocument>,
): CheckedNote | null {
  const reference = document.billingReference ?? null;
  if (!isNoteType(document.type)) {
    if (reference || document.noteReason) {
      throw new BadRequestError('ERROR_INVALID_PARAMETER', {
        parameter: 'billingReference',
        reason: 'solo una nota de crédito o de débito modifica otro comprobante',
      });
    }
    return null;
  }
  if (!reference) throw new BadRequestError('ERROR_NOTE_WITHOUT_BILLING_REFERENCE');
  const written = `${reference.prefixId}-${reference.numericId}`;
  const type =
    reference.typeCode !== null
      ? (NOTE_ORIGINAL_TYPE_CODES[reference.typeCode] ?? null)
      : originalTypeOfSeries(reference.prefixId);
  if (
    !type ||
    !/^\d{1,8}$/.test(reference.numericId) ||
    !checkInvoiceCode(type, reference.prefixId, reference.numericId)
  )
    throw new BadRequestError('ERROR_NOTE_BILLING_REFERENCE_INVALID', { reference: written });
  const catalogue = document.type === 'NOTA_DE_CREDITO' ? '09' : '10';
  const code = document.noteReason?.code ?? null;
  if (!code) throw new BadRequestError('ERROR_NOTE_WITHOUT_REASON', { catalogue });
  const label = noteReasonLabel(document.type, code);
  if (!label) {
    throw new BadRequestError('ERROR_NOTE_REASON_NOT_IN_CATALOGUE', {
      code,
      catalogue,
      noteType: NOTE_NAMES[document.type],
    });
  }
  const numericId = String(Number(reference.numericId));
  return {
    original: { type, prefixId: reference.prefixId, numericId, id: `${reference.prefixId}-${numericId}` },
    reason: { code, label, description: document.noteReason?.description ?? null },
  };
}

export interface LinkDeps {
  readonly store: Pick<IntakeStore, 'existing'>;
  readonly noteLinks: Pick<NoteLinks, 'notesOf' | 'anotherSupplierHolds' | 'writes'>;
}

/** What the intake adds to the invoice and to its transaction to link it. */
export interface Link {
  readonly fields: Partial<Invoice>;
  readonly writes: readonly TransactWriteItem[];
}

/**
 * A note: its original is checked (same company, same supplier's number, same currency, room for one more note),
 * the note is linked under the original's key, and it takes the original's purchase orders. Its original, in the
 * portal, is written with the same amounts (a new note counts only once accepted) and a new version, so that an
 * original read before the note came cannot be written back without it.
 */
export async function linkNote(
  deps: LinkDeps,
  invoice: Invoice,
  note: CheckedNote,
  client: Client,
  replacing: ExistingInvoice | null,
): Promise<Link> {
  const ref: InvoiceRef = { supplierId: invoice.supplierId, type: note.original.type, id: note.original.id };
  const original = await deps.store.existing(ref.supplierId, ref.type, ref.id);
  if (original && original.client !== client.taxId) {
    throw new BadRequestError('ERROR_NOTE_ORIGINAL_OF_ANOTHER_COMPANY', {
      original: ref.id,
      company: original.clientName,
    });
  }
  if (!original && (await deps.noteLinks.anotherSupplierHolds(client.taxId, ref)))
    throw new BadRequestError('ERROR_NOTE_ORIGINAL_OF_ANOTHER_SUPPLIER', { original: ref.id });
  if (original && original.currency !== invoice.currency) {
    throw new BadRequestError('ERROR_NOTE_CURRENCY_DIFFERS_FROM_ORIGINAL', {
      currency: invoice.currency,
      original: ref.id,
      originalCurrency: original.currency,
    });
  }
  const links = await deps.noteLinks.notesOf(ref);
  const others = links.notes.filter((linked) => !(linked.type === invoice.type && linked.id === invoice.id));
  if (others.length >= COUNT_LIMITS.notesPerOriginal)
    throw new BadRequestError('ERROR_NOTE_TOO_MANY_FOR_ORIGINAL', {
      original: ref.id,
      limit: COUNT_LIMITS.notesPerOriginal,
    });

  const writes: TransactWriteItem[] = [...deps.noteLinks.writes.link(ref, invoice)];
  const before = replacing?.billingReference;
  if (before && (before.type !== ref.type || before.id !== ref.id))
    writes.push(
      deps.noteLinks.writes.unlink({ supplierId: invoice.supplierId, type: before.type, id: before.id }, invoice),
    );
  if (original) {
    const counted = others.filter((linked) => linked.originalInPortal === true);
    writes.push(deps.noteLinks.writes.originalAmounts(original, originalAmounts(original.amount, counted)));
  } else {
    writes.push(deps.noteLinks.writes.originalAbsent(ref));
  }
  return {
    fields: {
      billingReference: note.original,
      noteReason: note.reason,
      originalInPortal: original !== null,
      purchaseOrders:
        original && original.purchaseOrders.length > 0 ? [...original.purchaseOrders] : invoice.purchaseOrders,
    },
    writes,
  };
}

/**
 * A document notes may modify (a factura, a boleta): the notes that came before it, of its company and currency,
 * learn that it is here, and it starts with what the accepted ones credit and debit. The notes' head is checked as
 * read, so that a note linking meanwhile makes the intake read again.
 */
export async function linkOriginal(deps: LinkDeps, invoice: Invoice): Promise<Link> {
  if (!(NOTE_ORIGINAL_TYPES as readonly string[]).includes(invoice.type)) return { fields: {}, writes: [] };
  const links = await deps.noteLinks.notesOf(invoice);
  const matching = links.notes.filter(
    (linked) => linked.client === invoice.client && linked.currency === invoice.currency,
  );
  return {
    fields: links.headVersion === null ? {} : originalAmounts(invoice.amount, matching),
    writes: [
      deps.noteLinks.writes.headAsRead(invoice, links.headVersion),
      ...matching.map((linked) => deps.noteLinks.writes.noteLinked(linked)),
    ],
  };
}
