import {
  ConflictError,
  INVOICE_STATUS_LABELS,
  type ErrorCode,
  type Invoice,
  type InvoiceStatus,
  type StatusHistoryEntry,
} from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import type { ConformityRef, StoredInvoice } from '../../repositories/invoice-store.js';

/** The statuses in which the manager may still complete, edit or reject an invoice. */
export const EDITABLE: readonly InvoiceStatus[] = ['PENDING', 'COMPLETED'];

/** The conformity documents (HES and MIGO) an invoice or a completion form names. */
export function refsOf(invoice: Pick<Invoice, 'serviceSheets' | 'materialDocs'>): ConformityRef[] {
  return [
    ...invoice.serviceSheets.map((documentId) => ({ kind: 'SERVICE_SHEET' as const, documentId })),
    ...invoice.materialDocs.map((documentId) => ({ kind: 'MATERIAL_DOCUMENT' as const, documentId })),
  ];
}

export const sameRef = (a: ConformityRef) => (b: ConformityRef) => a.kind === b.kind && a.documentId === b.documentId;

/** Who did it, as the trail and the history name them. */
export const actorOf = (caller: Pick<Caller, 'email' | 'sub'>): string => caller.email || caller.sub;

/** The history entry of a change of status by the caller, now. */
export function historyEntry(
  caller: Caller,
  status: InvoiceStatus,
  additionalMessage: string | null,
  now: Date,
): StatusHistoryEntry {
  return {
    status,
    title: INVOICE_STATUS_LABELS[status],
    additionalMessage,
    date: now.toISOString(),
    by: actorOf(caller),
  };
}

/** 409 with `code` unless the invoice is in one of the `allowed` statuses. */
export function requireStatus(invoice: Invoice, allowed: readonly InvoiceStatus[], code: ErrorCode): void {
  if (!allowed.includes(invoice.status)) throw new ConflictError(code, { status: invoice.status });
}

/** The invoice as stored, without the store's version (what a detail starts from). */
export function withoutVersion(stored: StoredInvoice): Invoice {
  const { version: _version, ...plain } = stored;
  return plain;
}
