import {
  BatchWriteCommand,
  GetCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import {
  ACQUIRER_CONFORMITY_HISTORY_TITLES,
  INVOICE_STATUS_LABELS,
  addDays,
  computePayment,
  conformityClockRecord,
  invoiceSearchItems,
  keys,
  limaDayOf,
  openAcquirerConformity,
  type AcquirerConformity,
  type Invoice,
  type InvoiceStatus,
  type PaymentInput,
  type StatusHistoryEntry,
} from '@portal/shared';
import { invoiceCounterUpdates } from '../../functions/src/repositories/invoice-counters.js';
import { CLIENTS, EMPLOYEES, SUPPLIERS } from './seed-data.js';

/**
 * The Ley 29623 demo (docs/ap-conformity.md): invoices of the demo supplier to the demo manager's first company, al
 * crédito, at several points of their 8 days, seeded relative to the stage's clock when this step first runs, so
 * that a person sees deadlines coming, one on its last day and one already past, which the scheduled job presumes
 * within seconds of the start (and the reminders due go out). Its own marker: data seeded earlier gets it on the
 * next start, without a reset.
 */
export const CONFORMITY_DEMO_MARKER = { pk: 'SEED', sk: 'acquirer-conformity-v1' } as const;

/** The e-mail of each demo employee (by position in STAFF_NAMES): Carmen is the demo manager, Jorge the admin. */
export const EMPLOYEE_EMAILS = [
  'gestor@grupoandino.pe',
  'luis.paredes@grupoandino.pe',
  'maria.torres@grupoandino.pe',
  'admin@grupoandino.pe',
] as const;

export interface ConformityDemoCase {
  readonly id: string;
  /** Days before the seeding that the portal received it (its issue is the day before). */
  readonly receivedDaysAgo: number;
  readonly status: InvoiceStatus;
  /** 'CASH' and 'SHORT_CREDIT' (payable within 8 days) run no clock. */
  readonly terms: 'CREDIT' | 'CASH' | 'SHORT_CREDIT';
  readonly answer?: 'CONFORMITY' | 'DISCONFORMITY';
  readonly person?: boolean;
}

export const CONFORMITY_DEMO_CASES: readonly ConformityDemoCase[] = [
  { id: 'F001-9101', receivedDaysAgo: 1, status: 'PENDING', terms: 'CREDIT' },
  { id: 'F001-9102', receivedDaysAgo: 4, status: 'COMPLETED', terms: 'CREDIT' },
  { id: 'F001-9103', receivedDaysAgo: 6, status: 'COMPLETED', terms: 'CREDIT' },
  { id: 'F001-9104', receivedDaysAgo: 8, status: 'PENDING', terms: 'CREDIT' },
  { id: 'F001-9105', receivedDaysAgo: 10, status: 'COMPLETED', terms: 'CREDIT' },
  { id: 'F001-9106', receivedDaysAgo: 3, status: 'COMPLETED', terms: 'CREDIT', answer: 'CONFORMITY' },
  { id: 'F001-9107', receivedDaysAgo: 5, status: 'PENDING', terms: 'CREDIT', answer: 'DISCONFORMITY' },
  { id: 'E001-9108', receivedDaysAgo: 2, status: 'PENDING', terms: 'CREDIT', person: true },
  { id: 'F001-9109', receivedDaysAgo: 2, status: 'PENDING', terms: 'CASH' },
  { id: 'F001-9110', receivedDaysAgo: 2, status: 'PENDING', terms: 'SHORT_CREDIT' },
];

const DAY_MS = 86_400_000;

/** The demo invoices and their clock records, as their intake (and the answers) would have left them at `now`. */
export function conformityDemo(now: Date): { invoices: Invoice[]; clocks: Record<string, unknown>[] } {
  const invoices: Invoice[] = [];
  const clocks: Record<string, unknown>[] = [];
  CONFORMITY_DEMO_CASES.forEach((demo, n) => {
    const { invoice, conformity } = conformityDemoInvoice(demo, n, now);
    invoices.push(invoice);
    if (conformity) clocks.push(conformityClockRecord(invoice, conformity, { revision: 1, at: now }));
  });
  return { invoices, clocks };
}

/** One case of the demo: its invoice, as intake and the manager's answer left it, and its clock (credit only). */
function conformityDemoInvoice(
  demo: ConformityDemoCase,
  n: number,
  now: Date,
): { invoice: Invoice; conformity: AcquirerConformity | null } {
  const client = CLIENTS[0]!;
  const responsible = EMPLOYEES[client.taxId]![0]!;
  const supplier = demo.person ? SUPPLIERS[3]! : SUPPLIERS[0]!;
  const receivedAt = new Date(now.getTime() - demo.receivedDaysAgo * DAY_MS).toISOString();
  const issuedAt = addDays(limaDayOf(receivedAt), -1);
  const base = 4_000 + n * 1_250;
  const taxAmount = demo.person ? 0 : Math.round(base * 18) / 100;
  const amount = Math.round((base + taxAmount) * 100) / 100;
  const payment = conformityDemoPayment(demo, { amount, taxAmount, issuedAt, receivedAt });
  const reviewed = demo.status !== 'PENDING';
  const history: StatusHistoryEntry[] = [
    {
      status: 'PENDING',
      title: INVOICE_STATUS_LABELS.PENDING,
      additionalMessage: 'Comprobante recibido',
      date: receivedAt,
      by: null,
    },
    ...(reviewed
      ? [
          {
            status: 'COMPLETED' as const,
            title: INVOICE_STATUS_LABELS.COMPLETED,
            additionalMessage: null,
            date: new Date(Date.parse(receivedAt) + 3_600_000).toISOString(),
            by: 'gestor@grupoandino.pe',
          },
        ]
      : []),
  ];
  let conformity: AcquirerConformity | null = demo.terms === 'CREDIT' ? openAcquirerConformity({ receivedAt }) : null;
  if (conformity && demo.answer) {
    const at = new Date(Date.parse(receivedAt) + DAY_MS).toISOString();
    const disconformity = demo.answer === 'DISCONFORMITY';
    const reason = disconformity ? 'El monto pendiente no descuenta la nota de crédito acordada.' : null;
    conformity = {
      ...conformity,
      state: demo.answer,
      answers: [
        {
          decision: demo.answer,
          cause: disconformity ? 'NET_AMOUNT' : null,
          reason,
          at,
          by: 'gestor@grupoandino.pe',
        },
      ],
    };
    history.push({
      status: demo.status,
      title: ACQUIRER_CONFORMITY_HISTORY_TITLES[demo.answer],
      additionalMessage: disconformity ? `Causal: Monto neto pendiente de pago. Motivo: ${reason}` : null,
      date: at,
      by: 'gestor@grupoandino.pe',
    });
  }
  const [prefixId, numericId] = demo.id.split('-') as [string, string];
  const invoice: Invoice = {
    id: demo.id,
    prefixId,
    numericId,
    type: demo.person ? 'RECIBO_POR_HONORARIOS' : 'FACTURA',
    status: demo.status,
    statusMessage: null,
    certStatus: 'VALID',
    approved: false,
    supplierId: supplier.taxId,
    supplierName: supplier.name,
    client: client.taxId,
    clientName: client.name,
    responsible: reviewed ? responsible : null,
    officeId: reviewed ? 'Sede Central' : null,
    locationId: reviewed ? 'OF-101' : null,
    operationType: reviewed ? 'WITHOUT_PURCHASE_ORDER' : null,
    currency: 'PEN',
    amount,
    taxAmount,
    serviceSheets: [],
    materialDocs: [],
    purchaseOrders: [],
    attachments: [],
    issuedAt,
    receivedAt,
    scheduledAt: null,
    paidAt: null,
    xmlUrl: null,
    pdfUrl: `seed/${supplier.taxId}/${demo.id}.pdf`,
    disapprovedWithoutRejection: false,
    notes: null,
    statusHistory: history,
    payment,
    acquirerConformity: conformity,
  };
  return { invoice, conformity };
}

/** As intake computes it (docs/ap-payment.md): the company's payment-run days and retention apply. */
function conformityDemoPayment(
  demo: ConformityDemoCase,
  {
    amount,
    taxAmount,
    issuedAt,
    receivedAt,
  }: { amount: number; taxAmount: number; issuedAt: string; receivedAt: string },
): Invoice['payment'] {
  const half = Math.round((amount / 2) * 100) / 100;
  const terms: Pick<PaymentInput, 'method' | 'installments'> =
    demo.terms === 'CASH'
      ? { method: 'CONTADO', installments: [] }
      : demo.terms === 'SHORT_CREDIT'
        ? { method: 'CREDITO', installments: [{ number: 1, amount, dueDate: addDays(issuedAt, 7) }] }
        : {
            method: 'CREDITO',
            installments: [
              { number: 1, amount: half, dueDate: addDays(issuedAt, 30) },
              { number: 2, amount: Math.round((amount - half) * 100) / 100, dueDate: addDays(issuedAt, 60) },
            ],
          };
  return computePayment({
    type: demo.person ? 'RECIBO_POR_HONORARIOS' : 'FACTURA',
    currency: 'PEN',
    amount,
    taxAmount,
    ...terms,
    declaredPendingAmount: terms.method === 'CREDITO' ? amount : null,
    dueDates: [],
    detraction: null,
    receivedAt,
    company: CLIENTS[0]!,
    supplierExemption: null,
  });
}

/**
 * Seeds the demo once (its marker, written last with a condition, says it is there), and gives the demo employees
 * their e-mail, to which the reminders of the invoices they are responsible for go. Answers the invoices seeded
 * (none when the marker was there).
 */
export async function seedConformityDemoIfAbsent(
  db: DynamoDBDocumentClient,
  table: string,
  now: Date,
): Promise<Invoice[]> {
  for (const [acquirer, employees] of Object.entries(EMPLOYEES)) {
    for (const [position, employee] of employees.entries()) {
      await db.send(
        new UpdateCommand({
          TableName: table,
          Key: keys.employee(acquirer, employee.id),
          UpdateExpression: 'SET email = :email',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':email': EMPLOYEE_EMAILS[position % EMPLOYEE_EMAILS.length] },
        }),
      );
    }
  }
  const seeded = await db.send(new GetCommand({ TableName: table, Key: CONFORMITY_DEMO_MARKER, ConsistentRead: true }));
  if (seeded.Item) return [];
  const { invoices, clocks } = conformityDemo(now);
  const items: Record<string, unknown>[] = [...clocks];
  for (const invoice of invoices) {
    items.push(
      { ...keys.invoice(invoice.supplierId, invoice.type, invoice.id), ...invoice, version: 1 },
      ...keys.invoiceListEntries(invoice),
    );
    items.push(...invoiceSearchItems(invoice));
  }
  // Puts first (a start that dies here writes them again), then the counters with the marker, in one transaction:
  // the demo is counted once, or not at all.
  for (let i = 0; i < items.length; i += 25) {
    let pending = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 8) throw new Error('DynamoDB Local no aceptó la demostración de la Ley 29623');
      const result = await db.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = (result.UnprocessedItems?.[table] ?? []) as typeof pending;
      if (pending.length) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
    }
  }
  // The counters as the invoices' transactions would have moved them.
  const counters = invoiceCounterUpdates(
    table,
    invoices.map((invoice) => ({ before: null, after: invoice })),
  ) as unknown as NonNullable<TransactWriteCommandInput['TransactItems']>;
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        ...counters,
        {
          Put: {
            TableName: table,
            Item: { ...CONFORMITY_DEMO_MARKER, seededAt: now.toISOString() },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    }),
  );
  return invoices;
}
