import {
  DEMO_CLIENTS,
  DEMO_GROUPS,
  DEMO_NO_HABIDO_SUPPLIER,
  DEMO_SUPPLIERS,
  type DemoSupplier,
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
  type Employee,
  type Invoice,
  type InvoiceStatus,
  type InvoiceType,
  type OfficeLocation,
  type OperationType,
  type StatusHistoryEntry,
  withCheckDigit,
} from '@portal/shared';
import type { DemoAccount } from '../runtime/outputs.js';

/**
 * The demo world of the local stage: the group's companies, their offices and staff, suppliers,
 * purchase orders, HES and MIGO, and invoices in every status. Deterministic, so tests derive their
 * expectations from this module instead of repeating numbers.
 */

export const ADMIN_GROUP = DEMO_GROUPS.admins;
export const STAFF_GROUP = DEMO_GROUPS.staff;
/** The corporate identity provider's name in the user pool (the AWS stages' default too). */
export const LOCAL_SSO_PROVIDER = 'Corporativo';
/**
 * The demo group's corporate e-mail domain: its staff sign in with the corporate button, and the login
 * tells whoever types such an address into the password form (config.json `corporateEmailDomains`).
 * Suppliers keep addresses of their own (@demo.pe).
 */
export const CORPORATE_EMAIL_DOMAIN = 'grupoandino.pe';
/** Staff addresses of earlier demo worlds, removed from a kept user pool (provision/identity.ts). */
export const RETIRED_DEMO_USERNAMES = [
  'gestor@demo.pe',
  'admin@demo.pe',
  'gestor.sinruc@demo.pe',
  'sofia.paredes@demo.pe',
] as const;

/** The group's companies (shared with the web app's mock provider). */
export const CLIENTS: readonly Client[] = DEMO_CLIENTS;

export type SeedSupplier = DemoSupplier;

/** The group's suppliers (shared with the web app's mock provider). */
export const SUPPLIERS: readonly SeedSupplier[] = DEMO_SUPPLIERS;

/**
 * A supplier SUNAT answers as NO HABIDO (issue 21, the RUC risk gate): the SUNAT simulator starts with its RUC so, and
 * its seeded invoices carry that answer; a manager cannot approve them, an administrator can with a reason.
 */
export const NO_HABIDO_SUPPLIER: SeedSupplier = DEMO_NO_HABIDO_SUPPLIER;

/** Each company's offices: Lima, Arequipa and Trujillo. */
function officeLocationsOf(clients: readonly Client[]): Record<string, OfficeLocation[]> {
  return Object.fromEntries(
    clients.map((client, c) => [
      client.taxId,
      [
        { id: `OF-${c + 1}01`, location: 'Lima', office: 'Sede Central' },
        { id: `OF-${c + 1}02`, location: 'Arequipa', office: 'Oficina Sur' },
        { id: `OF-${c + 1}03`, location: 'Trujillo', office: 'Oficina Norte' },
      ],
    ]),
  );
}

export const OFFICE_LOCATIONS: Record<string, OfficeLocation[]> = officeLocationsOf(CLIENTS);

const STAFF_NAMES = [
  'Carmen Rosa Gutiérrez Salas',
  'Luis Alberto Paredes Huamán',
  'María Fernanda Torres Vílchez',
  'Jorge Enrique Chávez Ramos',
];

/** Each company's employees (the responsibles of its invoices), one per office in turn. */
function employeesOf(
  clients: readonly Client[],
  offices: Record<string, OfficeLocation[]>,
): Record<string, Employee[]> {
  return Object.fromEntries(
    clients.map((client, c) => [
      client.taxId,
      STAFF_NAMES.map((fullName, e) => ({
        id: `E${c + 1}${String(e + 1).padStart(3, '0')}`,
        fullName,
        office: offices[client.taxId]![e % 3]!.office,
      })),
    ]),
  );
}

export const EMPLOYEES: Record<string, Employee[]> = employeesOf(CLIENTS, OFFICE_LOCATIONS);

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

const day = (base: Date, offset: number) => new Date(base.getTime() + offset * 86_400_000).toISOString().slice(0, 10);

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
function history(status: InvoiceStatus, receivedAt: string, reason: string | null): StatusHistoryEntry[] {
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

/** An invoice SAP holds (approved before the portal, or by the demo world's history), which notes may adjust. */
export interface LegacyPosting {
  readonly document: string;
  readonly fiscalYear: string;
  readonly acquirerTaxId: string;
  readonly supplierId: string;
  readonly invoiceId: string;
  readonly grossAmount: number;
  readonly currency: Currency;
  readonly purchaseOrders: readonly string[];
}

export interface SeedWorld {
  readonly invoices: Invoice[];
  readonly purchaseOrders: SeedPurchaseOrder[];
  readonly conformityDocuments: SeedConformityDocument[];
  /** What SAP already holds of the world: its approved facturas and the original of the note outside the portal. */
  readonly legacyPostings: LegacyPosting[];
}

/** Reasons of the seeded credit notes (catálogo 09), in turn. */
const SEED_CREDIT_REASONS = [
  { code: '09', label: 'Disminución en el valor', description: 'Ajuste de precio acordado con el área usuaria.' },
  { code: '04', label: 'Descuento global', description: 'Descuento por pronto pago.' },
  { code: '07', label: 'Devolución por ítem', description: 'Devolución de dos unidades con defecto.' },
] as const;

/** The series-number of the seeded note's original that is not in the portal (issued before it). */
export const ORIGINAL_NOT_IN_PORTAL = { type: 'FACTURA', prefixId: 'F001', numericId: '42', id: 'F001-42' } as const;
/** The purchase order that original was billed against, for the manager to enter on its note. */
export const ORIGINAL_NOT_IN_PORTAL_ORDER = '4500009042';

/**
 * Invoices for every supplier at every company, cycling through all statuses; dated before `today`. A test tenant's
 * world (`parties` of tenantParties) is the demo's with its own companies, suppliers and numbers.
 */
export function buildWorld(
  today: Date = new Date('2026-11-01T00:00:00Z'),
  parties: DemoParties = DEMO_PARTIES,
): SeedWorld {
  const { clients, suppliers, employees, officeLocations } = parties;
  const random = generator(20261101);
  const invoices: Invoice[] = [];
  const purchaseOrders: SeedPurchaseOrder[] = [];
  const conformityDocuments: SeedConformityDocument[] = [];
  // A tenant's correlatives and orders start apart from the others', so that no two worlds share a number.
  let correlative = 100 + parties.tenant * 10_000;
  let po = 4500012000 + parties.tenant * 100_000;
  let demoCredit = false;

  suppliers.forEach((supplier, s) => {
    clients.forEach((client, c) => {
      const count = 6 + ((s + c) % 3) * 2;
      for (let i = 0; i < count; i++) {
        const cycled = STATUSES[(i + s + c) % STATUSES.length]!;
        const isPerson = supplier.taxId.startsWith('10');
        const type: InvoiceType = isPerson ? 'RECIBO_POR_HONORARIOS' : i % 5 === 4 ? 'NOTA_DE_CREDITO' : 'FACTURA';
        // A credit note adjusts the factura just before it, of the same supplier and company (issue 21).
        const original = type === 'NOTA_DE_CREDITO' ? invoices[invoices.length - 1]! : null;
        const drawnCurrency: Currency = (i + c) % 4 === 3 ? 'USD' : 'PEN';
        const currency: Currency = original?.currency ?? drawnCurrency;
        const drawn = Math.round((500 + random() * 45_000) * 100) / 100;
        // A note takes a tenth of its original's amount before IGV.
        const base = original ? Math.round((original.amount - original.taxAmount) * 10) / 100 : drawn;
        const taxAmount = isPerson ? 0 : Math.round(base * 0.18 * 100) / 100;
        const amount = Math.round((base + taxAmount) * 100) / 100;
        const drawnIssue = day(today, -Math.floor(2 + random() * 170));
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
        const plannedOperation: OperationType = isPerson
          ? 'WITHOUT_PURCHASE_ORDER'
          : i % 2 === 0
            ? 'SERVICES'
            : 'GOODS';
        const reviewed = !['PENDING', 'REJECTED'].includes(status);
        const operationType: OperationType | null = reviewed ? (original?.operationType ?? plannedOperation) : null;
        const poId = String(po++);
        const employee = employees[client.taxId]![i % 4]!;
        const office = officeLocations[client.taxId]![i % 3]!;
        // SAP's orders and documents exist from the start; a note has none of its own (it takes its original's
        // orders), so those drawn for a note's turn stay free.
        const makesDocuments = plannedOperation === 'SERVICES' || plannedOperation === 'GOODS';
        const hasOrder = !original && makesDocuments;
        const claimed = reviewed && hasOrder;
        const prefixId = PREFIX[type];
        const numericId = String(correlative++);
        const id = `${prefixId}-${numericId}`;
        const conformityId = makesDocuments
          ? `${plannedOperation === 'SERVICES' ? '1000' : '5000'}${String(correlative).padStart(6, '0')}`
          : null;
        if (makesDocuments) {
          purchaseOrders.push({
            id: poId,
            issuerTaxId: supplier.taxId,
            acquirerTaxId: client.taxId,
            currency: drawnCurrency,
          });
          conformityDocuments.push({
            kind: plannedOperation === 'SERVICES' ? 'SERVICE_SHEET' : 'MATERIAL_DOCUMENT',
            documentId: conformityId!,
            purchaseOrder: poId,
            fiscalYear: issuedAt.slice(0, 4),
            issuerTaxId: supplier.taxId,
            acquirerTaxId: client.taxId,
            deliveryNote: plannedOperation === 'GOODS' ? `GR-${correlative}` : null,
            amount: drawn,
            currency: drawnCurrency,
            responsible: employee.id,
            associatedInvoice: claimed ? id : null,
            claimedBy: claimed ? keys.invoice(supplier.taxId, type, id).pk : null,
          });
        }
        const rejectedReason = status === 'REJECTED' ? 'El monto no coincide con la orden de compra.' : null;
        const reason = SEED_CREDIT_REASONS[i % SEED_CREDIT_REASONS.length]!;
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
          amount,
          taxAmount,
          serviceSheets: hasOrder && operationType === 'SERVICES' ? [conformityId!] : [],
          materialDocs: hasOrder && operationType === 'GOODS' ? [conformityId!] : [],
          purchaseOrders: original ? [...original.purchaseOrders] : reviewed && hasOrder ? [poId] : [],
          attachments: [],
          issuedAt,
          receivedAt,
          scheduledAt: status === 'SCHEDULED' || status === 'PAID' ? day(new Date(`${issuedAt}T00:00:00Z`), 30) : null,
          paidAt: status === 'PAID' ? day(new Date(`${issuedAt}T00:00:00Z`), 30) : null,
          xmlUrl: isPerson ? null : `seed/${supplier.taxId}/${id}.xml`,
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
          !demoCredit && s === 0 && c === 0 && type === 'FACTURA' && currency === 'PEN' && status === 'ACCEPTED';
        demoCredit ||= isDemoCredit;
        invoices.push({
          ...invoice,
          payment: seedPayment(invoice, i, isDemoCredit, parties),
          // SAP's remittance of a paid invoice: its payment document, by transfer.
          remittance:
            status === 'PAID'
              ? {
                  document: String(2100000000 + correlative),
                  fiscalYear: invoice.paidAt!.slice(0, 4),
                  paidAt: invoice.paidAt!,
                  method: 'T',
                  methodName: 'Transferencia bancaria',
                  amount: null,
                  currency: invoice.currency,
                }
              : null,
        });
        if (original) {
          const note = invoices[invoices.length - 1]!;
          invoices[invoices.length - 2] = { ...original, ...originalAmounts(original.amount, [note]) };
        }
      }
    });
  });
  correlative = addIssue21Demo(today, parties, invoices, purchaseOrders, conformityDocuments, correlative);
  return { invoices, purchaseOrders, conformityDocuments, legacyPostings: legacyPostingsOf(invoices, parties) };
}

/**
 * What a person trying the local stage sees of issue 21 besides the seeded credit notes: a debit note of an approved
 * factura, a credit note whose original (F001-42) was issued before the portal, and the NO HABIDO supplier's
 * facturas, one ready for approval. Returns the next correlative.
 */
function addIssue21Demo(
  today: Date,
  parties: DemoParties,
  invoices: Invoice[],
  purchaseOrders: SeedPurchaseOrder[],
  conformityDocuments: SeedConformityDocument[],
  correlative: number,
): number {
  const client = parties.clients[0]!;
  const supplier = parties.suppliers[0]!;
  const employee = parties.employees[client.taxId]![0]!;
  const office = parties.officeLocations[client.taxId]![0]!;
  const receivedAt = (issuedAt: string) => `${issuedAt}T15:30:00.000Z`;
  const common = {
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
  };

  // A debit note (intereses por mora) of the supplier's first approved factura at the company.
  const approvedIndex = invoices.findIndex(
    (invoice) =>
      invoice.supplierId === supplier.taxId &&
      invoice.client === client.taxId &&
      invoice.type === 'FACTURA' &&
      isAccepted(invoice.status),
  );
  const approved = invoices[approvedIndex]!;
  const debitIssued = day(today, -3);
  const debit: Invoice = {
    ...common,
    id: `FD01-${correlative}`,
    prefixId: 'FD01',
    numericId: String(correlative++),
    type: 'NOTA_DE_DEBITO',
    status: 'PENDING',
    supplierId: supplier.taxId,
    supplierName: supplier.name,
    currency: approved.currency,
    amount: 118,
    taxAmount: 18,
    purchaseOrders: [...approved.purchaseOrders],
    issuedAt: debitIssued,
    receivedAt: receivedAt(debitIssued),
    pdfUrl: `seed/${supplier.taxId}/FD01-${correlative - 1}.pdf`,
    statusHistory: history('PENDING', receivedAt(debitIssued), null),
    billingReference: { type: 'FACTURA', prefixId: approved.prefixId, numericId: approved.numericId, id: approved.id },
    noteReason: { code: '01', label: 'Intereses por mora', description: 'Intereses por pago fuera de plazo.' },
    originalInPortal: true,
  };
  invoices.push(debit);
  const notesOfApproved = invoices.filter(
    (invoice) => invoice.billingReference?.id === approved.id && invoice.supplierId === approved.supplierId,
  );
  invoices[approvedIndex] = { ...approved, ...originalAmounts(approved.amount, notesOfApproved) };

  // A credit note whose original was issued before the portal existed: SAP holds that factura (legacyPostingsOf).
  purchaseOrders.push({
    id: ORIGINAL_NOT_IN_PORTAL_ORDER,
    issuerTaxId: supplier.taxId,
    acquirerTaxId: client.taxId,
    currency: 'PEN',
  });
  const orphanIssued = day(today, -5);
  invoices.push({
    ...common,
    id: `FC01-${correlative}`,
    prefixId: 'FC01',
    numericId: String(correlative++),
    type: 'NOTA_DE_CREDITO',
    status: 'PENDING',
    supplierId: supplier.taxId,
    supplierName: supplier.name,
    currency: 'PEN',
    amount: 236,
    taxAmount: 36,
    purchaseOrders: [],
    issuedAt: orphanIssued,
    receivedAt: receivedAt(orphanIssued),
    pdfUrl: `seed/${supplier.taxId}/FC01-${correlative - 1}.pdf`,
    statusHistory: history('PENDING', receivedAt(orphanIssued), null),
    billingReference: { ...ORIGINAL_NOT_IN_PORTAL },
    noteReason: { code: '04', label: 'Descuento global', description: 'Descuento por volumen del primer trimestre.' },
    originalInPortal: false,
  });

  // The NO HABIDO supplier: a factura completed and ready for approval, and one still to review.
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
    const id = `F001-${correlative}`;
    const numericId = String(correlative++);
    const poId = `45000${numericId.padStart(5, '0')}`;
    const hesId = `1000${numericId.padStart(6, '0')}`;
    const base = status === 'COMPLETED' ? 4800 : 2150;
    const reviewed = status === 'COMPLETED';
    purchaseOrders.push({ id: poId, issuerTaxId: risky.taxId, acquirerTaxId: client.taxId, currency: 'PEN' });
    conformityDocuments.push({
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
    invoices.push({
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
  return correlative;
}

/** SAP's postings of the world: every approved factura, and the original of the note outside the portal. */
function legacyPostingsOf(invoices: readonly Invoice[], parties: DemoParties): LegacyPosting[] {
  const approved = invoices.filter((invoice) => invoice.type === 'FACTURA' && invoice.approved);
  return [
    ...approved.map((invoice, i) => ({
      document: String(5100000001 + parties.tenant * 10_000 + i),
      fiscalYear: invoice.issuedAt.slice(0, 4),
      acquirerTaxId: invoice.client,
      supplierId: invoice.supplierId,
      invoiceId: invoice.id,
      grossAmount: invoice.amount,
      currency: invoice.currency,
      purchaseOrders: invoice.purchaseOrders,
    })),
    {
      document: String(5100009042 + parties.tenant),
      fiscalYear: '2025',
      acquirerTaxId: parties.clients[0]!.taxId,
      supplierId: parties.suppliers[0]!.taxId,
      invoiceId: ORIGINAL_NOT_IN_PORTAL.id,
      grossAmount: 2360,
      currency: 'PEN',
      purchaseOrders: [ORIGINAL_NOT_IN_PORTAL_ORDER],
    },
  ];
}

/**
 * Demo accounts, one per role plus the two without taxId. Internal staff are corporate SSO users
 * (spec §6): they sign in at the local corporate IdP, whose directory is built from these entries.
 */
export interface DemoIdentity extends DemoAccount {
  readonly firstName: string;
  readonly lastName: string;
  readonly federated?: {
    readonly providerName: string;
    /** The subject the corporate IdP gives the user. */
    readonly subject: string;
    readonly groups: readonly string[];
    /** false: not in the user pool until the first corporate sign-in creates it. */
    readonly provisioned?: boolean;
  };
  /** Whether the account gets e-mail notifications (the Suppliers screen's "email reception"). */
  readonly receivesEmails: boolean;
}

const PASSWORD = 'Demo#Portal2026';

/**
 * The demo accounts of a world: the demo's own (tenant 0), or a test tenant's, whose addresses and corporate subjects
 * carry its number (proveedor.t2@demo.pe, gestor.t2@grupoandino.pe) and whose RUCs are its own.
 */
function demoUsersOf(tenant: number, clients: readonly Client[], suppliers: readonly SeedSupplier[]): DemoIdentity[] {
  const address = (email: string) => (tenant === 0 ? email : email.replace('@', `.t${tenant}@`));
  const subject = (id: string) => (tenant === 0 ? id : id.replace('corp-', `corp-t${tenant}-`));
  return [
    {
      username: address('proveedor@demo.pe'),
      password: PASSWORD,
      receivesEmails: true,
      role: 'SUPPLIER',
      signIn: 'password',
      taxId: suppliers[0]!.taxId,
      firstName: 'Ana',
      lastName: 'Salazar',
      description: `Proveedor ${suppliers[0]!.name}`,
    },
    {
      username: address('proveedor2@demo.pe'),
      password: PASSWORD,
      receivesEmails: false,
      role: 'SUPPLIER',
      signIn: 'password',
      taxId: suppliers[1]!.taxId,
      firstName: 'Pedro',
      lastName: 'Rojas',
      description: `Proveedor ${suppliers[1]!.name}`,
    },
    {
      username: address('gestor@grupoandino.pe'),
      password: PASSWORD,
      receivesEmails: true,
      role: 'MANAGER',
      signIn: 'corporate',
      taxId: `${clients[0]!.taxId},${clients[1]!.taxId}`,
      firstName: 'Carmen',
      lastName: 'Gutiérrez',
      federated: { providerName: LOCAL_SSO_PROVIDER, subject: subject('corp-000101'), groups: [STAFF_GROUP] },
      description: `Gestor de ${clients[0]!.name} y ${clients[1]!.name}`,
    },
    {
      username: address('admin@grupoandino.pe'),
      password: PASSWORD,
      receivesEmails: true,
      role: 'ADMIN',
      signIn: 'corporate',
      taxId: null,
      firstName: 'Jorge',
      lastName: 'Chávez',
      federated: {
        providerName: LOCAL_SSO_PROVIDER,
        subject: subject('corp-000102'),
        groups: [ADMIN_GROUP, STAFF_GROUP],
      },
      description: 'Administrador del portal (todas las sociedades)',
    },
    {
      username: address('proveedor.sinruc@demo.pe'),
      password: PASSWORD,
      receivesEmails: true,
      role: 'SUPPLIER',
      signIn: 'password',
      taxId: null,
      firstName: 'Lucía',
      lastName: 'Mendoza',
      description: 'Proveedor sin RUC asignado (página de acceso denegado)',
    },
    {
      username: address('gestor.sinruc@grupoandino.pe'),
      password: PASSWORD,
      receivesEmails: true,
      role: 'MANAGER',
      signIn: 'corporate',
      taxId: null,
      firstName: 'Raúl',
      lastName: 'Vega',
      federated: { providerName: LOCAL_SSO_PROVIDER, subject: subject('corp-000103'), groups: [STAFF_GROUP] },
      description: 'Gestor sin sociedades asignadas (página de acceso denegado)',
    },
    {
      username: address('sofia.paredes@grupoandino.pe'),
      password: PASSWORD,
      receivesEmails: true,
      role: 'MANAGER',
      signIn: 'corporate',
      taxId: null,
      firstName: 'Sofía',
      lastName: 'Paredes',
      federated: {
        providerName: LOCAL_SSO_PROVIDER,
        subject: subject('corp-000104'),
        groups: [STAFF_GROUP],
        provisioned: false,
      },
      description: 'Personal corporativo que aún no ingresó: su primer ingreso crea la cuenta (sin sociedades)',
    },
  ];
}

export const DEMO_USERS: DemoIdentity[] = demoUsersOf(0, CLIENTS, SUPPLIERS);

/** Who a world is about: the group's companies with their offices and staff, its suppliers and its accounts. */
export interface DemoParties {
  /** 0 for the demo world; a test tenant's number otherwise (LOCAL_TEST_TENANTS). */
  readonly tenant: number;
  readonly clients: readonly Client[];
  readonly suppliers: readonly SeedSupplier[];
  readonly noHabidoSupplier: SeedSupplier;
  readonly officeLocations: Record<string, OfficeLocation[]>;
  readonly employees: Record<string, Employee[]>;
  readonly users: readonly DemoIdentity[];
}

export const DEMO_PARTIES: DemoParties = {
  tenant: 0,
  clients: CLIENTS,
  suppliers: SUPPLIERS,
  noHabidoSupplier: NO_HABIDO_SUPPLIER,
  officeLocations: OFFICE_LOCATIONS,
  employees: EMPLOYEES,
  users: DEMO_USERS,
};

/**
 * A RUC of a test tenant's world: 20 (or 10 for a person) then 8, the tenant's two digits, the party's kind and
 * index, and zeros, with its check digit. No demo party and no RUC a test writes by hand starts so.
 */
function tenantRuc(original: string, tenant: number, kind: number, index: number): string {
  return withCheckDigit(`${original.slice(0, 2)}8${String(tenant).padStart(2, '0')}${kind}${index}000`);
}

/**
 * A test tenant's world (tenant ≥ 1): the demo's companies, suppliers and accounts, each with a RUC, a name (the
 * demo's, with T and the tenant's number before its last word) and an address of its own, so that the test files sharing one stage, each on its
 * own tenant, never read or change each other's invoices. Tenant 0 is the demo world itself.
 */
export function tenantParties(tenant: number): DemoParties {
  if (tenant === 0) return DEMO_PARTIES;
  if (!Number.isInteger(tenant) || tenant < 0 || tenant > 99) throw new Error(`No test tenant ${tenant}`);
  // The tenant's mark before the last word (the legal form): no tenant's name holds the demo's, or another's.
  const named = (name: string) => {
    const words = name.split(' ');
    return [...words.slice(0, -1), `T${tenant}`, words.at(-1)].join(' ');
  };
  const clients = CLIENTS.map((client, c) => ({
    ...client,
    taxId: tenantRuc(client.taxId, tenant, 1, c),
    name: named(client.name),
  }));
  const suppliers = SUPPLIERS.map((supplier, s) => ({
    ...supplier,
    taxId: tenantRuc(supplier.taxId, tenant, 2, s),
    name: named(supplier.name),
  }));
  const noHabidoSupplier = {
    ...NO_HABIDO_SUPPLIER,
    taxId: tenantRuc(NO_HABIDO_SUPPLIER.taxId, tenant, 3, 0),
    name: named(NO_HABIDO_SUPPLIER.name),
  };
  const officeLocations = officeLocationsOf(clients);
  return {
    tenant,
    clients,
    suppliers,
    noHabidoSupplier,
    officeLocations,
    employees: employeesOf(clients, officeLocations),
    users: demoUsersOf(tenant, clients, suppliers),
  };
}

/** The worlds of a stage: the demo's, then its test tenants' (LOCAL_TEST_TENANTS, none unless a test run asks). */
export function stageParties(tenants: number): DemoParties[] {
  return Array.from({ length: tenants + 1 }, (_, tenant) => tenantParties(tenant));
}
