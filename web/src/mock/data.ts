import {
  type ApiClient,
  type InvoiceMessage,
  DEMO_CLIENTS,
  DEMO_GROUPS,
  DEMO_NO_HABIDO_SUPPLIER,
  DEMO_SUPPLIERS,
  INVOICE_STATUS_LABELS,
  withCheckDigit,
  type AuditEvent,
  type Client,
  type ConformityDocument,
  type Currency,
  type Employee,
  type ExportJob,
  type IntakeBatchSummary,
  type IntakeDocumentResult,
  type ExternalUser,
  type InternalUser,
  type Invoice,
  type InvoiceStatus,
  type InvoiceType,
  type Notification,
  type OfficeLocation,
  type OperationType,
  type StatusHistoryEntry,
  type SupplierProfile,
  formatErrorMessage,
} from '@portal/shared';
import { seededRandom } from './random';

/**
 * The mock provider's world: the group's companies, their staff and offices, suppliers, invoices in every status,
 * HES and MIGO, notifications and user accounts. Names, RUCs (with valid check digits) and amounts are fixed by
 * a seed; dates are counted back from the day the app starts, so the current month always has activity.
 */

export const MOCK_GROUP = DEMO_GROUPS;

/** The local stage's demo group (shared/src/data/demo-group.ts), so that the mock reads like the stage. */
export const MOCK_CLIENTS: readonly Client[] = DEMO_CLIENTS;

const profile = ({ taxId, name }: SupplierProfile): SupplierProfile => ({ taxId, name });
const [industriales, ferreteria, consultores, quispe] = DEMO_SUPPLIERS.map(profile);

/** The demo group's suppliers, and two more so that the lists fill a page. */
export const MOCK_SUPPLIERS: readonly SupplierProfile[] = [
  industriales!,
  ferreteria!,
  consultores!,
  profile(DEMO_NO_HABIDO_SUPPLIER),
  { taxId: withCheckDigit('2053318904'), name: 'Agroexportadora Valle de Ica S.A.' },
  { taxId: withCheckDigit('2055702369'), name: 'Tecnologías Andinas del Perú S.A.C.' },
  quispe!,
];

const STAFF_NAMES = [
  'María Fernanda Salazar Ríos',
  'José Luis Huamán Torres',
  'Carmen Rosa Villanueva Paz',
  'Jorge Alberto Chávez Medina',
  'Lucía Esther Gamarra Soto',
  'Ricardo Manuel Flores Ccori',
] as const;

const PLACES = [
  { location: 'Lima', office: 'Sede Central' },
  { location: 'Arequipa', office: 'Oficina Sur' },
  { location: 'Trujillo', office: 'Oficina Norte' },
] as const;

export const MOCK_OFFICES: Readonly<Record<string, readonly OfficeLocation[]>> = Object.fromEntries(
  MOCK_CLIENTS.map((client, c) => [
    client.taxId,
    PLACES.map((place, p) => ({ id: `OF${c + 1}0${p + 1}`, location: place.location, office: place.office })),
  ]),
);

export const MOCK_EMPLOYEES: Readonly<Record<string, readonly Employee[]>> = Object.fromEntries(
  MOCK_CLIENTS.map((client, c) => [
    client.taxId,
    STAFF_NAMES.slice(c, c + 4).map((fullName, e) => ({
      id: String(70010 + c * 10 + e),
      fullName,
      office: PLACES[e % PLACES.length]!.office,
    })),
  ]),
);

const DAY_MS = 86_400_000;

/** A date `daysAgo` days before `today` (yyyy-mm-dd). */
export function daysBefore(today: Date, daysAgo: number): string {
  return new Date(today.getTime() - daysAgo * DAY_MS).toISOString().slice(0, 10);
}

function timestampOf(date: string, hour: number): string {
  return `${date}T${String(hour).padStart(2, '0')}:15:00.000-05:00`;
}

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

/** An export the mock provider follows: who asked, and how far it got (each read moves it on). */
export interface MockExport {
  readonly owner: string;
  job: ExportJob;
}

/** A zip of documents being processed: its results are revealed a third at a time, read after read. */
export interface MockIntakeBatch {
  readonly owner: string;
  batch: IntakeBatchSummary;
  readonly results: IntakeDocumentResult[];
  revealed: number;
}

/** What a zip of the company's documents became: its first invoices accepted, the last already there, one refused. */
export function mockIntakeResults(invoices: readonly Invoice[], company: string, at: Date): IntakeDocumentResult[] {
  const now = at.toISOString();
  const own = invoices.filter((invoice) => invoice.supplierId === company).slice(0, 5);
  const base = (invoice: Invoice) => `${invoice.supplierId}-${invoice.id}`;
  const orphan = `${company}-01-F001-00009999`;
  return [
    ...own.map((invoice, i): IntakeDocumentResult => {
      const existing = i === own.length - 1;
      return {
        base: base(invoice),
        files: [`${base(invoice)}.xml`, `${base(invoice)}.pdf`],
        outcome: existing ? 'ALREADY_EXISTS' : 'ACCEPTED',
        invoice: { supplierId: invoice.supplierId, invoiceType: invoice.type, invoiceId: invoice.id },
        reason: existing
          ? { code: 'ERROR_INVOICE_ALREADY_EXISTS', message: formatErrorMessage('ERROR_INVOICE_ALREADY_EXISTS') }
          : null,
        cdrWarning: null,
        recordedAt: now,
      };
    }),
    {
      base: orphan,
      files: [`${orphan}.pdf`],
      outcome: 'REFUSED',
      invoice: null,
      reason: {
        code: 'ERROR_ZIP_DOCUMENT_WITHOUT_XML',
        message: formatErrorMessage('ERROR_ZIP_DOCUMENT_WITHOUT_XML', { base: orphan, files: `${orphan}.pdf` }),
      },
      cdrWarning: null,
      recordedAt: now,
    },
  ];
}

/**
 * The supplier's zip of last week, processed; one of today, resumed after its worker stopped mid-way; and one refused
 * while its documents were read, two of them processed before.
 */
function buildIntakeBatches(invoices: readonly Invoice[], today: Date): MockIntakeBatch[] {
  const company = MOCK_SUPPLIERS[0]!.taxId;
  const at = new Date(today.getTime() - 7 * 86_400_000);
  const results = mockIntakeResults(invoices, company, at);
  const count = (outcome: IntakeDocumentResult['outcome']) => results.filter((r) => r.outcome === outcome).length;
  return [
    {
      owner: 'proveedor',
      batch: {
        id: '4f7c2d1e-8a3b-4c5d-9e6f-1a2b3c4d5e6f',
        status: 'DONE',
        fileName: 'comprobantes-octubre.zip',
        company,
        counts: {
          total: results.length,
          processed: results.length,
          accepted: count('ACCEPTED'),
          alreadyExisting: count('ALREADY_EXISTS'),
          refused: count('REFUSED'),
        },
        progress: 1,
        error: null,
        createdAt: at.toISOString(),
        finishedAt: at.toISOString(),
        resumedAt: null,
      },
      results,
      revealed: results.length,
    },
    {
      owner: 'proveedor',
      batch: {
        id: '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d',
        status: 'PROCESSING',
        fileName: 'comprobantes-noviembre.zip',
        company,
        counts: { total: results.length, processed: 0, accepted: 0, alreadyExisting: 0, refused: 0 },
        progress: 0,
        error: null,
        createdAt: new Date(today.getTime() - 10 * 60_000).toISOString(),
        finishedAt: null,
        resumedAt: new Date(today.getTime() - 2 * 60_000).toISOString(),
      },
      results,
      revealed: 0,
    },
    {
      owner: 'proveedor',
      batch: {
        id: '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9',
        status: 'REFUSED',
        fileName: 'comprobantes-dañado.zip',
        company,
        counts: {
          total: results.length,
          processed: 2,
          accepted: results.slice(0, 2).filter((r) => r.outcome === 'ACCEPTED').length,
          alreadyExisting: results.slice(0, 2).filter((r) => r.outcome === 'ALREADY_EXISTS').length,
          refused: results.slice(0, 2).filter((r) => r.outcome === 'REFUSED').length,
        },
        progress: results.length === 0 ? 0 : 2 / results.length,
        error: { code: 'ERROR_ZIP_INVALID', message: formatErrorMessage('ERROR_ZIP_INVALID') },
        createdAt: new Date(today.getTime() - 3 * 86_400_000).toISOString(),
        finishedAt: new Date(today.getTime() - 3 * 86_400_000).toISOString(),
        resumedAt: null,
      },
      results,
      revealed: 2,
    },
  ];
}

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

function emailOf(fullName: string, domain: string): string {
  const [first = 'usuario', , last = 'portal'] = fullName
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(' ');
  return `${first}.${last}@${domain}`;
}

function buildExternalUsers(today: Date): ExternalUser[] {
  return MOCK_SUPPLIERS.map((supplier, index) => ({
    id: `ext-${supplier.taxId}`,
    taxId: supplier.taxId,
    firstName: ['Rosa', 'Pedro', 'Ana', 'Luis', 'Milagros', 'César', 'Rosa Elena'][index] ?? 'Contacto',
    lastName: ['Paredes', 'Córdova', 'Espinoza', 'Rojas', 'Ñique', 'Vargas', 'Quispe Mamani'][index] ?? 'Proveedor',
    role: 'SUPPLIER',
    companyName: supplier.name,
    email: `facturacion${index + 1}@${supplier.name.split(' ')[0]!.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()}.pe`,
    enabled: index !== 5,
    status: index === 4 ? 'FORCE_CHANGE_PASSWORD' : 'CONFIRMED',
    createdAt: timestampOf(daysBefore(today, 120 + index * 9), 10),
    canReceiveEmails: index !== 3,
  }));
}

function buildInternalUsers(today: Date): InternalUser[] {
  return STAFF_NAMES.map((fullName, index) => {
    const [firstName = '', second = '', ...rest] = fullName.split(' ');
    const companies = MOCK_CLIENTS.filter((_, c) => (index + c) % 3 !== 2);
    return {
      id: `int-${index + 1}`,
      taxId: index === 5 ? null : companies.map((client) => client.taxId).join(','),
      firstName: `${firstName} ${second}`,
      lastName: rest.join(' '),
      role: index === 0 ? 'ADMIN' : 'MANAGER',
      companyName: index === 5 ? null : (companies[0]?.name ?? null),
      email: emailOf(fullName, 'grupoandino.pe'),
      enabled: true,
      status: 'EXTERNAL_PROVIDER',
      createdAt: timestampOf(daysBefore(today, 300 - index * 20), 9),
    };
  });
}

function buildApiClients(today: Date): ApiClient[] {
  const by = emailOf(STAFF_NAMES[0], 'grupoandino.pe');
  const [first, second] = MOCK_SUPPLIERS;
  return [
    {
      clientId: '4k2f9q1m7c8d0s5t3v6b1n2x9z',
      name: 'ERP de facturación',
      taxId: first!.taxId,
      supplierName: first!.name,
      scopes: ['invoices.submit', 'invoices.read'],
      createdAt: timestampOf(daysBefore(today, 12), 10),
      createdBy: by,
      revokedAt: null,
      revokedBy: null,
    },
    {
      clientId: '7h3j5k8l2m4n6p9q1r0s2t4u6v',
      name: 'Integración anterior',
      taxId: second!.taxId,
      supplierName: second!.name,
      scopes: ['invoices.read'],
      createdAt: timestampOf(daysBefore(today, 40), 9),
      createdBy: by,
      revokedAt: timestampOf(daysBefore(today, 5), 16),
      revokedBy: by,
    },
  ];
}

function buildAuditEvents(externalUsers: readonly ExternalUser[], today: Date): AuditEvent[] {
  const actor = { id: 'int-1', email: emailOf(STAFF_NAMES[0], 'grupoandino.pe') };
  const actions = ['USER_CREATED', 'PASSWORD_RESET_STARTED', 'EMAIL_NOTIFICATIONS_CHANGED', 'USER_DISABLED'] as const;
  return externalUsers.slice(0, 8).map((user, index) => {
    const action = actions[index % actions.length]!;
    return {
      id: `aud-${String(index + 1).padStart(3, '0')}`,
      occurredAt: timestampOf(daysBefore(today, index * 3), 11),
      action,
      actor,
      target: { userId: user.id, email: user.email },
      before: action === 'EMAIL_NOTIFICATIONS_CHANGED' ? { canReceiveEmails: true } : null,
      after: action === 'EMAIL_NOTIFICATIONS_CHANGED' ? { canReceiveEmails: false } : null,
      txId: `mock-tx-${String(index + 1).padStart(4, '0')}`,
    };
  });
}

/** A fresh world, the same for the same day: the handlers change it (approvals, new invoices) until reset. */
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
