import { isNoteType, type Invoice } from '@portal/shared';
import type { SupplierInvoicePosting, SupplierInvoiceWithholding } from '../../adapters/sap.js';
import type { MiroOutboxRecord } from '../../repositories/miro-outbox.js';
import { refsOf } from '../review/review-steps.js';
import type { MiroPostingDeps } from './miro-posting-deps.js';

/** Every HES or MIGO is one line of the order's first item, as the review entered them. */
const PURCHASE_ORDER_ITEM = '10';

type PostingDeps = Pick<MiroPostingDeps, 'outbox' | 'store' | 'sap' | 'clock'>;

/**
 * What is posted to SAP for an approved invoice (the MIRO): its amounts and one line per HES or MIGO the review
 * entered; a note's adjusts its original's document instead (notePostingOf).
 */
export async function supplierInvoicePostingOf(
  deps: PostingDeps,
  record: MiroOutboxRecord,
  invoice: Invoice,
): Promise<SupplierInvoicePosting> {
  if (isNoteType(invoice.type) && invoice.billingReference)
    return notePostingOf(deps, record, invoice, invoice.billingReference);
  const refs = refsOf(invoice);
  const lines = await deps.outbox.conformityLines(invoice.client, refs);
  const missing = refs.filter((ref) => !lines.some((line) => line.documentId === ref.documentId));
  if (missing.length > 0) throw new Error(`conformity documents not found: ${missing.map((m) => m.documentId)}`);
  return {
    ...postingHeader(deps, record, invoice),
    withholdings: withholdingsOf(invoice),
    items: lines.map((line) => ({
      purchaseOrder: line.purchaseOrder,
      purchaseOrderItem: PURCHASE_ORDER_ITEM,
      amount: line.amount,
      ...(line.kind === 'SERVICE_SHEET'
        ? { serviceEntrySheet: line.documentId }
        : { referenceDocument: line.documentId, referenceDocumentFiscalYear: line.fiscalYear }),
    })),
  };
}

/** The fields every posting carries: its idempotency key (the outbox record's), the document and its amounts. */
function postingHeader(deps: Pick<PostingDeps, 'clock'>, record: MiroOutboxRecord, invoice: Invoice) {
  return {
    idempotencyKey: record.idempotencyKey,
    client: invoice.client,
    supplierId: invoice.supplierId,
    supplierInvoiceId: invoice.id,
    documentDate: invoice.issuedAt,
    postingDate: deps.clock().toISOString().slice(0, 10),
    currency: invoice.currency,
    grossAmount: invoice.amount,
    taxAmount: invoice.taxAmount,
    creditMemo: invoice.type === 'NOTA_DE_CREDITO',
  };
}

/**
 * A note adjusts its original's SAP document: the portal's record of it, else SAP's own (an original that never
 * passed through the portal). Its net amount goes on its purchase orders — the original's — in the proportion the
 * original's HES/MIGO gave them, else in equal parts; a note without orders has no lines.
 */
async function notePostingOf(
  deps: PostingDeps,
  record: MiroOutboxRecord,
  note: Invoice,
  reference: NonNullable<Invoice['billingReference']>,
): Promise<SupplierInvoicePosting> {
  const original = await deps.store.get(note.supplierId, reference.type, reference.id);
  const inPortal = original && original.client === note.client ? original : null;
  const adjusts =
    inPortal?.sapDocument ??
    (await deps.sap.findSupplierInvoice({
      client: note.client,
      supplierId: note.supplierId,
      supplierInvoiceId: reference.id,
      creditMemo: false,
      adjustment: false,
    }));
  if (!adjusts) throw new Error(`SAP no registra el comprobante original ${reference.id} de la nota ${note.id}.`);
  const lines = inPortal ? await deps.outbox.conformityLines(inPortal.client, refsOf(inPortal)) : [];
  const orders = [...new Set(note.purchaseOrders)];
  const weights = orders.map((order) =>
    lines.filter((line) => line.purchaseOrder === order).reduce((sum, line) => sum + line.amount, 0),
  );
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const netCents = Math.round((note.amount - note.taxAmount) * 100);
  let left = netCents;
  const items = orders.map((purchaseOrder, i) => {
    const share =
      i === orders.length - 1
        ? left
        : Math.round((netCents * (total > 0 ? weights[i]! : 1)) / (total > 0 ? total : orders.length));
    left -= share;
    return { purchaseOrder, purchaseOrderItem: PURCHASE_ORDER_ITEM, amount: share / 100 };
  });
  return { ...postingHeader(deps, record, note), adjusts, items };
}

/**
 * The withholdings the MIRO carries (docs/ap-payment.md): the detracción the document states and the retención
 * del IGV the company applies, each on the invoice's total, in its currency, as computed at intake.
 */
export function withholdingsOf(invoice: Invoice): SupplierInvoiceWithholding[] {
  const payment = invoice.payment;
  if (!payment) return [];
  const withholdings: SupplierInvoiceWithholding[] = [];
  if (payment.detraction) {
    withholdings.push({
      kind: 'DETRACTION',
      baseAmount: invoice.amount,
      amount: payment.detraction.amountInDocumentCurrency,
    });
  }
  if (payment.igvRetention?.applies) {
    withholdings.push({ kind: 'IGV_RETENTION', baseAmount: invoice.amount, amount: payment.igvRetention.amount });
  }
  return withholdings;
}
