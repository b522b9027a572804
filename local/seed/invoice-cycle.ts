import {
  INVOICE_STATUS_LABELS,
  isAccepted,
  originalAmounts,
  computePayment,
  fromCents,
  toCents,
  keys,
  type CertStatus,
  type Client,
  type Currency,
  type Invoice,
  type InvoiceStatus,
  type InvoiceType,
  type OperationType,
  type StatusHistoryEntry,
} from '@portal/shared';
import type { DemoParties, SeedSupplier } from './parties.js';

/**
 * The bulk of the demo world: invoices of every supplier at every company, cycling through every status, with
 * SAP's purchase orders, HES and MIGO behind them, a credit note after every fourth factura and their payments.
 */

export interface SeedConformityDocument {
  readonly kind: 'SERVICE_SHEET' | 'MATERIAL_DOCUMENT';
  readonly documentId: string;
  readonly purchaseOrder: string;
  readonly fiscalYear: string;
  readonly issuerTaxId: string;
  readonly acquirerTaxId: string;
  readonly deliveryNote: string | null;
  readonly amount: number;
  readonly currency: Currency;
  readonly responsible: string;
  /** Number of the invoice that uses it, as the HES/MIGO screens show it. */
  readonly associatedInvoice: string | null;
  /** Key of the invoice that claimed it: the condition that keeps a document on one invoice. */
  readonly claimedBy: string | null;
}

export interface SeedPurchaseOrder {
  readonly id: string;
  readonly issuerTaxId: string;
  readonly acquirerTaxId: string;
  readonly currency: Currency;
}

/** A small deterministic generator, so the demo world is the same on every machine. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** SUNAT answers of the invoices still to review: waiting, refused and confirmed. */
const CERT_CYCLE: CertStatus[] = ['PENDING', 'INVALID', 'VALID'];

const STATUSES: InvoiceStatus[] = ['PENDING', 'COMPLETED', 'ACCEPTED', 'REJECTED', 'SCHEDULED', 'PAID'];
const PREFIX: Record<InvoiceType, string> = {
  FACTURA: 'F001',
  BOLETA: 'B001',
  NOTA_DE_CREDITO: 'FC01',
  NOTA_DE_DEBITO: 'FD01',
  RECIBO_POR_HONORARIOS: 'E001',
  RECIBO: 'R001',
};

export const day = (base: Date, offset: number) =>
  new Date(base.getTime() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * The demo invoice of docs/ap-payment.md: a factura a crédito of the demo supplier to the first company, in two
 * cuotas due 30 and 60 days after issue, subject to a 12 % detracción (catálogo 54: 037, demás servicios).
 */
export const DEMO_CREDIT_DETRACTION = { code: '037', percent: 12, account: '00-068-145617' } as const;

/**
 * The payment of a seeded invoice, as intake computes it (rules/payment.ts), from what its XML would say: a
 * recibo por honorarios al contado, a credit note without forma de pago, a factura al contado one time in three
 * and otherwise al crédito in one cuota due 30 days after issue; the demo invoice as DEMO_CREDIT_DETRACTION says.
 */
function seedPayment(invoice: Invoice, i: number, demoCredit: boolean, parties: DemoParties): Invoice['payment'] {
  const company = parties.clients.find((client) => client.taxId === invoice.client)!;
  const supplier = parties.suppliers.find((each) => each.taxId === invoice.supplierId)!;
  const issued = new Date(`${invoice.issuedAt}T00:00:00Z`);
  const detraction = demoCredit
    ? {
        operationType: '1001',
        code: DEMO_CREDIT_DETRACTION.code,
        percent: DEMO_CREDIT_DETRACTION.percent,
        amount: null,
        currency: invoice.currency,
        account: DEMO_CREDIT_DETRACTION.account,
      }
    : null;
  const method =
    invoice.type === 'NOTA_DE_CREDITO'
      ? null
      : invoice.type === 'RECIBO_POR_HONORARIOS' || (!demoCredit && i % 3 === 1)
        ? ('CONTADO' as const)
        : ('CREDITO' as const);
  const input = {
    type: invoice.type,
    currency: invoice.currency,
    amount: invoice.amount,
    taxAmount: invoice.taxAmount,
    method,
    installments: [],
    declaredPendingAmount: null,
    dueDates: [],
    detraction,
    receivedAt: invoice.receivedAt,
    company,
    supplierExemption: supplier.igvRetentionExemption ?? null,
  };
  if (method !== 'CREDITO') return computePayment(input);
  // The cuotas add up to the net to pay, as SUNAT asks: the first half (rounded down to the cent), then the rest.
  const net = toCents(computePayment(input).netToPay);
  const shares = demoCredit ? [Math.floor(net / 2), net - Math.floor(net / 2)] : [net];
  return computePayment({
    ...input,
    installments: shares.map((cents, n) => ({
      number: n + 1,
      amount: fromCents(cents),
      dueDate: day(issued, 30 * (n + 1)),
    })),
    declaredPendingAmount: fromCents(net),
  });
}

/** The history of a seeded invoice: received at `receivedAt`, then a step every three days. */
export function history(status: InvoiceStatus, receivedAt: string, reason: string | null): StatusHistoryEntry[] {
  const path: InvoiceStatus[] =
    status === 'REJECTED'
      ? ['PENDING', 'REJECTED']
      : STATUSES.slice(0, STATUSES.indexOf(status) + 1).filter((step) => step !== 'REJECTED');
  return path.map((step, i) => ({
    status: step,
    title: INVOICE_STATUS_LABELS[step],
    additionalMessage: step === 'REJECTED' ? reason : null,
    date: new Date(Date.parse(receivedAt) + i * 3 * 86_400_000).toISOString(),
    by: i === 0 ? null : 'gestor@grupoandino.pe',
  }));
}

/** Reasons of the seeded credit notes (catálogo 09), in turn. */
const SEED_CREDIT_REASONS = [
  { code: '09', label: 'Disminución en el valor', description: 'Ajuste de precio acordado con el área usuaria.' },
  { code: '04', label: 'Descuento global', description: 'Descuento por pronto pago.' },
  { code: '07', label: 'Devolución por ítem', description: 'Devolución de dos unidades con defecto.' },
] as const;

/** The world as it is being built: what is drawn so far, and the next numbers. */
export interface WorldDraft {
  readonly random: () => number;
  readonly invoices: Invoice[];
  readonly purchaseOrders: SeedPurchaseOrder[];
  readonly conformityDocuments: SeedConformityDocument[];
  correlative: number;
  po: number;
  /** Whether the demo invoice of DEMO_CREDIT_DETRACTION is drawn yet. */
  demoCredit: boolean;
}

export function worldDraft(parties: DemoParties): WorldDraft {
  return {
    random: generator(20261101),
    invoices: [],
    purchaseOrders: [],
    conformityDocuments: [],
    // A tenant's correlatives and orders start apart from the others', so that no two worlds share a number.
    correlative: 100 + parties.tenant * 10_000,
    po: 4500012000 + parties.tenant * 100_000,
    demoCredit: false,
  };
}

/** Invoices for every supplier at every company, cycling through all statuses; dated before `today`. */
export function addCycledInvoices(draft: WorldDraft, today: Date, parties: DemoParties): void {
  parties.suppliers.forEach((supplier, s) => {
    parties.clients.forEach((client, c) => {
      const count = 6 + ((s + c) % 3) * 2;
      for (let i = 0; i < count; i++) addCycledInvoice(draft, today, parties, { supplier, s, client, c, i });
    });
  });
}

/** Which invoice of the cycle: the supplier's and company's positions, and the invoice's turn among theirs. */
interface Turn {
  readonly supplier: SeedSupplier;
  readonly s: number;
  readonly client: Client;
  readonly c: number;
  readonly i: number;
}

/** What a turn draws: the document's type, the original it adjusts, amounts, dates, status and operation. */
interface Drawn {
  readonly isPerson: boolean;
  readonly type: InvoiceType;
  readonly original: Invoice | null;
  readonly drawnCurrency: Currency;
  readonly currency: Currency;
  readonly drawn: number;
  readonly taxAmount: number;
  readonly amount: number;
  readonly issuedAt: string;
  readonly status: InvoiceStatus;
  readonly plannedOperation: OperationType;
  readonly reviewed: boolean;
}

function drawInvoice(draft: WorldDraft, today: Date, { supplier, s, c, i }: Turn): Drawn {
  const cycled = STATUSES[(i + s + c) % STATUSES.length]!;
  const isPerson = supplier.taxId.startsWith('10');
  const type: InvoiceType = isPerson ? 'RECIBO_POR_HONORARIOS' : i % 5 === 4 ? 'NOTA_DE_CREDITO' : 'FACTURA';
  // A credit note adjusts the factura just before it, of the same supplier and company.
  const original = type === 'NOTA_DE_CREDITO' ? draft.invoices[draft.invoices.length - 1]! : null;
  const drawnCurrency: Currency = (i + c) % 4 === 3 ? 'USD' : 'PEN';
  const currency: Currency = original?.currency ?? drawnCurrency;
  const drawn = Math.round((500 + draft.random() * 45_000) * 100) / 100;
  // A note takes a tenth of its original's amount before IGV.
  const base = original ? Math.round((original.amount - original.taxAmount) * 10) / 100 : drawn;
  const taxAmount = isPerson ? 0 : Math.round(base * 0.18 * 100) / 100;
  const amount = Math.round((base + taxAmount) * 100) / 100;
  const drawnIssue = day(today, -Math.floor(2 + draft.random() * 170));
  const issuedAt = original && drawnIssue < original.issuedAt ? original.issuedAt : drawnIssue;
  // A note is reviewed after its original, and approved only once its original is.
  const status: InvoiceStatus = !original
    ? cycled
    : original.operationType === null && cycled !== 'REJECTED'
      ? 'PENDING'
      : isAccepted(cycled) && !isAccepted(original.status)
        ? 'COMPLETED'
        : cycled;
  // What the manager will choose; documents exist from the start, as SAP creates them before invoicing.
  const plannedOperation: OperationType = isPerson ? 'WITHOUT_PURCHASE_ORDER' : i % 2 === 0 ? 'SERVICES' : 'GOODS';
  const reviewed = !['PENDING', 'REJECTED'].includes(status);
  return {
    isPerson,
    type,
    original,
    drawnCurrency,
    currency,
    drawn,
    taxAmount,
    amount,
    issuedAt,
    status,
    plannedOperation,
    reviewed,
  };
}

function addCycledInvoice(draft: WorldDraft, today: Date, parties: DemoParties, turn: Turn): void {
  const { supplier, s, client, c, i } = turn;
  const drawn = drawInvoice(draft, today, turn);
  const { type, original, currency, status, plannedOperation, reviewed, issuedAt } = drawn;
  const operationType: OperationType | null = reviewed ? (original?.operationType ?? plannedOperation) : null;
  const poId = String(draft.po++);
  const employee = parties.employees[client.taxId]![i % 4]!;
  const office = parties.officeLocations[client.taxId]![i % 3]!;
  // SAP's orders and documents exist from the start; a note has none of its own (it takes its original's
  // orders), so those drawn for a note's turn stay free.
  const makesDocuments = plannedOperation === 'SERVICES' || plannedOperation === 'GOODS';
  const hasOrder = !original && makesDocuments;
  const prefixId = PREFIX[type];
  const numericId = String(draft.correlative++);
  const id = `${prefixId}-${numericId}`;
  const conformityId = makesDocuments
    ? `${plannedOperation === 'SERVICES' ? '1000' : '5000'}${String(draft.correlative).padStart(6, '0')}`
    : null;
  if (makesDocuments) addOrderAndDocument(draft, turn, drawn, { poId, id, conformityId: conformityId!, employee });
  const rejectedReason = status === 'REJECTED' ? 'El monto no coincide con la orden de compra.' : null;
  const reason = SEED_CREDIT_REASONS[i % SEED_CREDIT_REASONS.length]!;
  const correlative = draft.correlative;
  // Received from the day of issue to three days later, in office hours (Lima is UTC-5).
  const receivedAt = new Date(
    Date.parse(`${issuedAt}T13:00:00Z`) + ((correlative * 7) % 72) * 3_600_000 + (correlative % 60) * 60_000,
  ).toISOString();
  const invoice: Invoice = {
    id,
    prefixId,
    numericId,
    type,
    status,
    statusMessage: rejectedReason,
    certStatus: status === 'PENDING' ? CERT_CYCLE[i % 3]! : 'VALID',
    approved: ['ACCEPTED', 'SCHEDULED', 'PAID'].includes(status),
    supplierId: supplier.taxId,
    supplierName: supplier.name,
    client: client.taxId,
    clientName: client.name,
    responsible: reviewed ? employee : null,
    officeId: reviewed ? office.office : null,
    locationId: reviewed ? office.id : null,
    operationType,
    currency,
    amount: drawn.amount,
    taxAmount: drawn.taxAmount,
    serviceSheets: hasOrder && operationType === 'SERVICES' ? [conformityId!] : [],
    materialDocs: hasOrder && operationType === 'GOODS' ? [conformityId!] : [],
    purchaseOrders: original ? [...original.purchaseOrders] : reviewed && hasOrder ? [poId] : [],
    attachments: [],
    issuedAt,
    receivedAt,
    scheduledAt: status === 'SCHEDULED' || status === 'PAID' ? day(new Date(`${issuedAt}T00:00:00Z`), 30) : null,
    paidAt: status === 'PAID' ? day(new Date(`${issuedAt}T00:00:00Z`), 30) : null,
    xmlUrl: drawn.isPerson ? null : `seed/${supplier.taxId}/${id}.xml`,
    pdfUrl: `seed/${supplier.taxId}/${id}.pdf`,
    // Half of the rejections let the supplier send the same document again.
    disapprovedWithoutRejection: status === 'REJECTED' && i % 2 === 0,
    notes: null,
    statusHistory: history(status, receivedAt, rejectedReason),
    ...(original
      ? {
          billingReference: {
            type: 'FACTURA' as const,
            prefixId: original.prefixId,
            numericId: original.numericId,
            id: original.id,
          },
          noteReason: { ...reason },
          originalInPortal: true,
        }
      : {}),
  };
  const isDemoCredit =
    !draft.demoCredit && s === 0 && c === 0 && type === 'FACTURA' && currency === 'PEN' && status === 'ACCEPTED';
  draft.demoCredit ||= isDemoCredit;
  draft.invoices.push({
    ...invoice,
    payment: seedPayment(invoice, i, isDemoCredit, parties),
    remittance: remittanceOf(invoice, correlative),
  });
  if (original) {
    const note = draft.invoices[draft.invoices.length - 1]!;
    draft.invoices[draft.invoices.length - 2] = { ...original, ...originalAmounts(original.amount, [note]) };
  }
}

/** SAP's order for a turn and its HES or MIGO, claimed by the invoice once it is reviewed. */
function addOrderAndDocument(
  draft: WorldDraft,
  { supplier, client }: Turn,
  { type, plannedOperation, reviewed, original, issuedAt, drawn, drawnCurrency }: Drawn,
  made: { poId: string; id: string; conformityId: string; employee: { readonly id: string } },
): void {
  const claimed = reviewed && !original;
  draft.purchaseOrders.push({
    id: made.poId,
    issuerTaxId: supplier.taxId,
    acquirerTaxId: client.taxId,
    currency: drawnCurrency,
  });
  draft.conformityDocuments.push({
    kind: plannedOperation === 'SERVICES' ? 'SERVICE_SHEET' : 'MATERIAL_DOCUMENT',
    documentId: made.conformityId,
    purchaseOrder: made.poId,
    fiscalYear: issuedAt.slice(0, 4),
    issuerTaxId: supplier.taxId,
    acquirerTaxId: client.taxId,
    deliveryNote: plannedOperation === 'GOODS' ? `GR-${draft.correlative}` : null,
    amount: drawn,
    currency: drawnCurrency,
    responsible: made.employee.id,
    associatedInvoice: claimed ? made.id : null,
    claimedBy: claimed ? keys.invoice(supplier.taxId, type, made.id).pk : null,
  });
}

/** SAP's remittance of a paid invoice: its payment document, by transfer. */
function remittanceOf(invoice: Invoice, correlative: number): Invoice['remittance'] {
  if (invoice.status !== 'PAID') return null;
  return {
    document: String(2100000000 + correlative),
    fiscalYear: invoice.paidAt!.slice(0, 4),
    paidAt: invoice.paidAt!,
    method: 'T',
    methodName: 'Transferencia bancaria',
    amount: null,
    currency: invoice.currency,
  };
}
