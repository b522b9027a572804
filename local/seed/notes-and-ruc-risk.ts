import {
  isAccepted,
  keys,
  originalAmounts,
  type Client,
  type Employee,
  type Invoice,
  type OfficeLocation,
} from '@portal/shared';
import { day, history, type WorldDraft } from './invoice-cycle.js';
import type { DemoParties } from './parties.js';

/**
 * What a person trying the local stage sees of notes and of the RUC risk gate besides the cycle's credit notes: a
 * debit note of an approved factura, a credit note whose original (F001-42) was issued before the portal, and the
 * NO HABIDO supplier's facturas, one ready for approval. All of the demo supplier (or the NO HABIDO one) at the
 * first company.
 */

/** The series-number of the seeded note's original that is not in the portal (issued before it). */
export const ORIGINAL_NOT_IN_PORTAL = { type: 'FACTURA', prefixId: 'F001', numericId: '42', id: 'F001-42' } as const;
/** The purchase order that original was billed against, for the manager to enter on its note. */
export const ORIGINAL_NOT_IN_PORTAL_ORDER = '4500009042';

/** Where these cases happen: the first company, its first employee and office, and the fields they share. */
interface Setting {
  readonly client: Client;
  readonly employee: Employee;
  readonly office: OfficeLocation;
  readonly receivedAt: (issuedAt: string) => string;
  readonly common: Omit<
    Invoice,
    | 'id'
    | 'prefixId'
    | 'numericId'
    | 'type'
    | 'status'
    | 'supplierId'
    | 'supplierName'
    | 'currency'
    | 'amount'
    | 'taxAmount'
    | 'purchaseOrders'
    | 'issuedAt'
    | 'receivedAt'
    | 'pdfUrl'
    | 'statusHistory'
  >;
}

export function addNotesAndRucRiskCases(draft: WorldDraft, today: Date, parties: DemoParties): void {
  const client = parties.clients[0]!;
  const setting: Setting = {
    client,
    employee: parties.employees[client.taxId]![0]!,
    office: parties.officeLocations[client.taxId]![0]!,
    receivedAt: (issuedAt: string) => `${issuedAt}T15:30:00.000Z`,
    common: {
      statusMessage: null,
      certStatus: 'VALID' as const,
      approved: false,
      client: client.taxId,
      clientName: client.name,
      responsible: null,
      officeId: null,
      locationId: null,
      operationType: null,
      serviceSheets: [],
      materialDocs: [],
      attachments: [],
      scheduledAt: null,
      paidAt: null,
      xmlUrl: null,
      disapprovedWithoutRejection: false,
      notes: null,
    },
  };
  addDebitNoteOfApprovedFactura(draft, today, parties, setting);
  addCreditNoteOfOriginalOutsidePortal(draft, today, parties, setting);
  addNoHabidoSupplierFacturas(draft, today, parties, setting);
}

/** A debit note (intereses por mora) of the supplier's first approved factura at the company. */
function addDebitNoteOfApprovedFactura(draft: WorldDraft, today: Date, parties: DemoParties, setting: Setting): void {
  const { invoices } = draft;
  const { client } = setting;
  const supplier = parties.suppliers[0]!;
  const approvedIndex = invoices.findIndex(
    (invoice) =>
      invoice.supplierId === supplier.taxId &&
      invoice.client === client.taxId &&
      invoice.type === 'FACTURA' &&
      isAccepted(invoice.status),
  );
  const approved = invoices[approvedIndex]!;
  invoices.push(
    pendingNote(draft, setting, supplier, {
      prefixId: 'FD01',
      type: 'NOTA_DE_DEBITO',
      currency: approved.currency,
      amount: 118,
      taxAmount: 18,
      purchaseOrders: [...approved.purchaseOrders],
      issuedAt: day(today, -3),
      billingReference: {
        type: 'FACTURA',
        prefixId: approved.prefixId,
        numericId: approved.numericId,
        id: approved.id,
      },
      noteReason: { code: '01', label: 'Intereses por mora', description: 'Intereses por pago fuera de plazo.' },
      originalInPortal: true,
    }),
  );
  const notesOfApproved = invoices.filter(
    (invoice) => invoice.billingReference?.id === approved.id && invoice.supplierId === approved.supplierId,
  );
  invoices[approvedIndex] = { ...approved, ...originalAmounts(approved.amount, notesOfApproved) };
}

/** A credit note whose original was issued before the portal existed: SAP holds that factura (legacyPostingsOf). */
function addCreditNoteOfOriginalOutsidePortal(
  draft: WorldDraft,
  today: Date,
  parties: DemoParties,
  setting: Setting,
): void {
  const supplier = parties.suppliers[0]!;
  draft.purchaseOrders.push({
    id: ORIGINAL_NOT_IN_PORTAL_ORDER,
    issuerTaxId: supplier.taxId,
    acquirerTaxId: setting.client.taxId,
    currency: 'PEN',
  });
  draft.invoices.push(
    pendingNote(draft, setting, supplier, {
      prefixId: 'FC01',
      type: 'NOTA_DE_CREDITO',
      currency: 'PEN',
      amount: 236,
      taxAmount: 36,
      purchaseOrders: [],
      issuedAt: day(today, -5),
      billingReference: { ...ORIGINAL_NOT_IN_PORTAL },
      noteReason: { code: '04', label: 'Descuento global', description: 'Descuento por volumen del primer trimestre.' },
      originalInPortal: false,
    }),
  );
}

/** A note to review, of the supplier at the setting's company: the next correlative of its series. */
function pendingNote(
  draft: WorldDraft,
  { receivedAt, common }: Setting,
  supplier: { readonly taxId: string; readonly name: string },
  note: Pick<Invoice, 'prefixId' | 'type' | 'currency' | 'amount' | 'taxAmount' | 'purchaseOrders' | 'issuedAt'> &
    Required<Pick<Invoice, 'billingReference' | 'noteReason' | 'originalInPortal'>>,
): Invoice {
  const numericId = String(draft.correlative++);
  return {
    ...common,
    id: `${note.prefixId}-${numericId}`,
    prefixId: note.prefixId,
    numericId,
    type: note.type,
    status: 'PENDING',
    supplierId: supplier.taxId,
    supplierName: supplier.name,
    currency: note.currency,
    amount: note.amount,
    taxAmount: note.taxAmount,
    purchaseOrders: note.purchaseOrders,
    issuedAt: note.issuedAt,
    receivedAt: receivedAt(note.issuedAt),
    pdfUrl: `seed/${supplier.taxId}/${note.prefixId}-${numericId}.pdf`,
    statusHistory: history('PENDING', receivedAt(note.issuedAt), null),
    billingReference: note.billingReference,
    noteReason: note.noteReason,
    originalInPortal: note.originalInPortal,
  };
}

/** The NO HABIDO supplier: a factura completed and ready for approval, and one still to review. */
function addNoHabidoSupplierFacturas(
  draft: WorldDraft,
  today: Date,
  parties: DemoParties,
  { client, employee, office, receivedAt, common }: Setting,
): void {
  const sunat = (checkedAt: string) => ({
    estadoCp: '1',
    estadoRuc: 'ACTIVO',
    condDomiRuc: 'NO HABIDO',
    observaciones: [],
    checkedAt,
  });
  const risky = parties.noHabidoSupplier;
  for (const status of ['COMPLETED', 'PENDING'] as const) {
    const issuedAt = day(today, status === 'COMPLETED' ? -12 : -4);
    const id = `F001-${draft.correlative}`;
    const numericId = String(draft.correlative++);
    const poId = `45000${numericId.padStart(5, '0')}`;
    const hesId = `1000${numericId.padStart(6, '0')}`;
    const base = status === 'COMPLETED' ? 4800 : 2150;
    const reviewed = status === 'COMPLETED';
    draft.purchaseOrders.push({ id: poId, issuerTaxId: risky.taxId, acquirerTaxId: client.taxId, currency: 'PEN' });
    draft.conformityDocuments.push({
      kind: 'SERVICE_SHEET',
      documentId: hesId,
      purchaseOrder: poId,
      fiscalYear: issuedAt.slice(0, 4),
      issuerTaxId: risky.taxId,
      acquirerTaxId: client.taxId,
      deliveryNote: null,
      amount: base,
      currency: 'PEN',
      responsible: employee.id,
      associatedInvoice: reviewed ? id : null,
      claimedBy: reviewed ? keys.invoice(risky.taxId, 'FACTURA', id).pk : null,
    });
    draft.invoices.push({
      ...common,
      id,
      prefixId: 'F001',
      numericId,
      type: 'FACTURA',
      status,
      supplierId: risky.taxId,
      supplierName: risky.name,
      currency: 'PEN',
      amount: Math.round(base * 118) / 100,
      taxAmount: Math.round(base * 18) / 100,
      responsible: reviewed ? employee : null,
      officeId: reviewed ? office.office : null,
      locationId: reviewed ? office.id : null,
      operationType: reviewed ? 'SERVICES' : null,
      serviceSheets: reviewed ? [hesId] : [],
      purchaseOrders: reviewed ? [poId] : [],
      issuedAt,
      receivedAt: receivedAt(issuedAt),
      pdfUrl: `seed/${risky.taxId}/${id}.pdf`,
      statusHistory: history(status, receivedAt(issuedAt), null),
      sunat: sunat(receivedAt(issuedAt)),
    });
  }
}
