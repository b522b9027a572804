import {
  type ApiClient,
  type InvoiceMessage,
  INVOICE_STATUS_LABELS,
  type AuditEvent,
  type ConformityDocument,
  type Currency,
  type ExternalUser,
  type InternalUser,
  type Invoice,
  type InvoiceStatus,
  type InvoiceType,
  type Notification,
  type OperationType,
  type StatusHistoryEntry,
} from '@portal/shared';
import { seededRandom } from './random';
import { buildApiClients, buildAuditEvents, buildExternalUsers, buildInternalUsers } from './accounts';
import {
  DAY_MS,
  MOCK_CLIENTS,
  MOCK_EMPLOYEES,
  MOCK_OFFICES,
  MOCK_SUPPLIERS,
  daysBefore,
  timestampOf,
} from './directory';
import { buildIntakeBatches, type MockExport, type MockIntakeBatch } from './intake-batches';

/** The group's directory, for the tests that read the world through this module. */
export { MOCK_CLIENTS, MOCK_EMPLOYEES, MOCK_OFFICES, MOCK_SUPPLIERS } from './directory';

/**
 * The mock provider's world: the group's companies, their staff and offices, suppliers, invoices in every status,
 * HES and MIGO, notifications and user accounts. Names, RUCs (with valid check digits) and amounts are fixed by
 * a seed; dates are counted back from the day the app starts, so the current month always has activity.
 */

const PREFIXES: Record<InvoiceType, string> = {
  FACTURA: 'F001',
  BOLETA: 'B001',
  NOTA_DE_CREDITO: 'FC01',
  NOTA_DE_DEBITO: 'FD01',
  RECIBO_POR_HONORARIOS: 'E001',
  RECIBO: 'R001',
};

/** The statuses an invoice passes through to reach `status`. */
const PATHS_TO: Record<InvoiceStatus, readonly InvoiceStatus[]> = {
  PENDING: ['PENDING'],
  COMPLETED: ['PENDING', 'COMPLETED'],
  ACCEPTED: ['PENDING', 'COMPLETED', 'ACCEPTED'],
  REJECTED: ['PENDING', 'REJECTED'],
  SCHEDULED: ['PENDING', 'COMPLETED', 'ACCEPTED', 'SCHEDULED'],
  PAID: ['PENDING', 'COMPLETED', 'ACCEPTED', 'SCHEDULED', 'PAID'],
};

const REJECTION_REASONS = [
  'El monto no coincide con la orden de compra.',
  'Falta la guía de remisión firmada.',
  'La HES indicada corresponde a otro servicio.',
] as const;

const SERVICE_NOTES = [
  'Mantenimiento preventivo de fajas transportadoras',
  'Servicio de transporte de concentrado a puerto',
  'Asesoría tributaria del mes',
  'Suministro de equipos de protección personal',
  'Alquiler de grupo electrógeno',
  null,
] as const;

export function statusHistory(status: InvoiceStatus, receivedAt: string, by: string | null): StatusHistoryEntry[] {
  const start = Date.parse(receivedAt);
  return PATHS_TO[status].map((step, index) => ({
    status: step,
    title: INVOICE_STATUS_LABELS[step],
    additionalMessage: step === 'REJECTED' ? REJECTION_REASONS[index % REJECTION_REASONS.length]! : null,
    date: new Date(start + index * 2 * DAY_MS).toISOString(),
    by: index === 0 ? null : by,
  }));
}

/** Amounts in cents, to keep two decimals exact. */
const fromCents = (cents: number) => Math.round(cents) / 100;

export interface MockWorld {
  readonly invoices: Invoice[];
  /** The zips of documents uploaded with 'Cargar ZIP'. */
  readonly intakeBatches: MockIntakeBatch[];
  /** Exports asked for; one of the gestor's is ready from the start. */
  readonly exports: MockExport[];
  readonly serviceSheets: ConformityDocument[];
  readonly materialDocs: ConformityDocument[];
  readonly notifications: Notification[];
  readonly externalUsers: ExternalUser[];
  readonly internalUsers: InternalUser[];
  readonly auditEvents: AuditEvent[];
  /** Suppliers' API clients: one active, one revoked. */
  readonly apiClients: ApiClient[];
  /** Each invoice's conversation, by `{supplierId}#{type}#{id}`, oldest first. */
  readonly messages: Record<string, InvoiceMessage[]>;
}

const STATUS_CYCLE: readonly InvoiceStatus[] = [
  'PENDING',
  'PENDING',
  'COMPLETED',
  'ACCEPTED',
  'SCHEDULED',
  'PAID',
  'PAID',
  'REJECTED',
];

function buildInvoices(today: Date): Invoice[] {
  const random = seededRandom(20_241_105);
  const invoices: Invoice[] = [];
  let correlative = 1200;
  for (let i = 0; i < 54; i += 1) {
    const client = MOCK_CLIENTS[i % MOCK_CLIENTS.length]!;
    const supplier = MOCK_SUPPLIERS[(i * 5 + Math.floor(i / 7)) % MOCK_SUPPLIERS.length]!;
    const person = supplier.taxId.startsWith('10');
    const type: InvoiceType = person ? 'RECIBO_POR_HONORARIOS' : i % 11 === 4 ? 'BOLETA' : 'FACTURA';
    const status = STATUS_CYCLE[i % STATUS_CYCLE.length]!;
    const currency: Currency = i % 4 === 3 ? 'USD' : 'PEN';
    const base = random.int(35_000, currency === 'USD' ? 1_850_000 : 4_800_000);
    const taxCents = person ? 0 : Math.round(base * 0.18);
    const issuedAt = daysBefore(today, 1 + Math.floor(i * 1.7));
    const receivedAt = timestampOf(issuedAt, 9 + (i % 8));
    const employees = MOCK_EMPLOYEES[client.taxId]!;
    const offices = MOCK_OFFICES[client.taxId]!;
    const reviewed = status !== 'PENDING' && status !== 'REJECTED';
    const operationType: OperationType = i % 3 === 0 ? 'GOODS' : 'SERVICES';
    const numericId = String(correlative++);
    const responsible = reviewed ? employees[i % employees.length]! : null;
    const office = reviewed ? offices[i % offices.length]! : null;
    invoices.push({
      id: `${PREFIXES[type]}-${numericId}`,
      prefixId: PREFIXES[type],
      numericId,
      type,
      status,
      statusMessage: status === 'REJECTED' ? REJECTION_REASONS[i % REJECTION_REASONS.length]! : null,
      certStatus: i % 13 === 0 ? 'PENDING' : i % 17 === 5 ? 'INVALID' : 'VALID',
      approved: ['ACCEPTED', 'SCHEDULED', 'PAID'].includes(status),
      supplierId: supplier.taxId,
      supplierName: supplier.name,
      client: client.taxId,
      clientName: client.name,
      responsible,
      officeId: office?.office ?? null,
      locationId: office?.id ?? null,
      operationType: reviewed ? operationType : null,
      currency,
      amount: fromCents(base + taxCents),
      taxAmount: fromCents(taxCents),
      serviceSheets: reviewed && operationType === 'SERVICES' ? [`10000${4100 + i}`] : [],
      materialDocs: reviewed && operationType === 'GOODS' ? [`50000${7200 + i}`] : [],
      purchaseOrders: reviewed ? [`45000${18300 + i}`] : [],
      attachments: [],
      issuedAt,
      receivedAt,
      scheduledAt: status === 'SCHEDULED' || status === 'PAID' ? daysBefore(today, -7 + (i % 5)) : null,
      paidAt: status === 'PAID' ? daysBefore(today, Math.floor(i / 3)) : null,
      xmlUrl: type === 'BOLETA' ? null : `mock/${supplier.taxId}/${PREFIXES[type]}-${numericId}.xml`,
      pdfUrl: `mock/${supplier.taxId}/${PREFIXES[type]}-${numericId}.pdf`,
      disapprovedWithoutRejection: false,
      notes: SERVICE_NOTES[i % SERVICE_NOTES.length]!,
      statusHistory: statusHistory(status, receivedAt, responsible?.fullName ?? 'María Fernanda Salazar Ríos'),
    });
  }
  // Newest received first, as every listing of the API.
  return invoices.sort((a, b) => b.receivedAt.localeCompare(a.receivedAt));
}

function buildConformity(kind: 'HES' | 'MIGO', today: Date): ConformityDocument[] {
  const random = seededRandom(kind === 'HES' ? 4100 : 7200);
  const documents: ConformityDocument[] = [];
  for (let i = 0; i < 18; i += 1) {
    const client = MOCK_CLIENTS[i % MOCK_CLIENTS.length]!;
    const supplier = MOCK_SUPPLIERS[(i * 3) % MOCK_SUPPLIERS.length]!;
    const documentId = kind === 'HES' ? `10000${5100 + i}` : `50000${8200 + i}`;
    documents.push({
      fiscalYear: daysBefore(today, i * 4).slice(0, 4),
      issuerTaxId: supplier.taxId,
      acquirerTaxId: client.taxId,
      documentId,
      deliveryNote: kind === 'MIGO' ? `T001-${3400 + i}` : null,
      purchaseOrder: `45000${19100 + i}`,
      // One in four is already claimed by an invoice: its availability check answers 404.
      associatedInvoice: i % 4 === 1 ? `F001-${900 + i}` : null,
      amount: fromCents(random.int(50_000, 2_500_000)),
      currency: i % 5 === 4 ? 'USD' : 'PEN',
      responsible: MOCK_EMPLOYEES[client.taxId]![i % 4]!.id,
    });
  }
  return documents;
}

function buildNotifications(invoices: readonly Invoice[], today: Date): Notification[] {
  // The latest changes of each company's invoices, so that every persona has some.
  const latest = MOCK_CLIENTS.flatMap((client) =>
    invoices.filter((invoice) => invoice.client === client.taxId).slice(0, 4),
  );
  return latest.map((invoice, index) => ({
    id: `ntf-${String(index + 1).padStart(3, '0')}`,
    registeredAt: timestampOf(daysBefore(today, index), 8 + index),
    isRead: index > 2,
    message:
      invoice.status === 'REJECTED'
        ? `El comprobante ${invoice.id} de ${invoice.supplierName} fue rechazado.`
        : `El comprobante ${invoice.id} de ${invoice.supplierName} está en estado «${INVOICE_STATUS_LABELS[invoice.status]}».`,
    reference: { issuerTaxId: invoice.supplierId, invoiceType: invoice.type, invoiceId: invoice.id },
  }));
}

export function createMockWorld(today: Date = new Date()): MockWorld {
  const invoices = buildInvoices(today);
  const externalUsers = buildExternalUsers(today);
  return {
    invoices,
    intakeBatches: buildIntakeBatches(invoices, today),
    exports: [
      {
        owner: 'gestor',
        job: {
          id: '7d1e4c2a-5b8f-4e21-9a63-0c4b2f1e8d90',
          list: 'invoices',
          format: 'xlsx',
          status: 'READY',
          rows: invoices.length,
          total: invoices.length,
          totalChanged: false,
          progress: 1,
          fileName: 'Comprobantes.xlsx',
          url: null,
          createdAt: today.toISOString(),
          finishedAt: today.toISOString(),
          resumedAt: null,
        },
      },
    ],
    serviceSheets: buildConformity('HES', today),
    materialDocs: buildConformity('MIGO', today),
    notifications: buildNotifications(invoices, today),
    externalUsers,
    internalUsers: buildInternalUsers(today),
    auditEvents: buildAuditEvents(externalUsers, today),
    apiClients: buildApiClients(today),
    messages: {},
  };
}
