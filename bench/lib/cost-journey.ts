import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { SCHEDULES, buildPath, keys, routes, type Invoice, type RouteDef, type UploadTicket } from '@portal/shared';
import { ROOT_DIR } from '../../local/runtime/config.js';
import type { LocalOutputs } from '../../local/runtime/outputs.js';
import { advanceStageClock, resetStageClock } from '../../local/runtime/stage-clock.js';
import { CLIENTS, EMPLOYEES, OFFICE_LOCATIONS, SUPPLIERS } from '../../local/seed/seed-data.js';
import { freshCorrelative } from '../../tests/support/invoices.js';
import { until } from '../../tests/support/until.js';
import { managerToken, supplierToken } from './sign-in.js';

/**
 * One invoice's whole life on the local stage, driven through the API as its people live it (the journey of
 * tests/integration/journey.test.ts), for the cost suite: the supplier uploads its UBL XML (ticket, presigned POST,
 * registration), SUNAT's simulator validates it, the manager opens the completion form, completes and approves it,
 * SAP's simulator receives the MIRO posting, payment runs schedule and pay it (the PaymentSync job), and the supplier
 * is told of each step (feed and e-mail). Beside the steps, the views a month of use brings per invoice (VIEWS).
 *
 * The bench waits for the asynchronous steps by reading the table itself (not through the API): its own polling is
 * not a user's request and is not counted. The purchase order and HES the completion names are put in the table as
 * SAP's reference-data sync leaves them (that sync is not part of an invoice's life).
 */

const SUPPLIER = SUPPLIERS[0]!;
const COMPANY = CLIENTS[0]!;
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * What a month of use brings per invoice beyond its steps (docs/cost.md, "Scenario"): the supplier looks at its list
 * and at the invoice a few times and reads its notifications; the staff find it in the list, open it to review,
 * complete and approve it, look at its PDF/XML once, and open the dashboard now and then (once every five invoices).
 */
export const VIEWS = {
  supplierListViews: 3,
  supplierDetailViews: 2,
  supplierFeedViews: 2,
  staffListViews: 4,
  staffDetailViews: 3,
  staffFileViews: 1,
  dashboardEveryInvoices: 5,
} as const;

export interface Traffic {
  /** API requests the bench made as users (each one API Gateway request, one CloudFront and WAF request). */
  apiRequests: number;
  /** Bytes of the API's responses. */
  apiBytes: number;
  /** What the browsers did straight with the bucket through presigned URLs. */
  s3Posts: number;
  s3Gets: number;
}

interface Session {
  readonly outputs: LocalOutputs;
  readonly supplier: string;
  readonly manager: string;
  readonly db: DynamoDBDocumentClient;
  readonly traffic: Traffic;
}

export async function openSession(outputs: LocalOutputs): Promise<Session> {
  const [supplier, manager] = await Promise.all([supplierToken(outputs), managerToken(outputs)]);
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({ region: outputs.region, endpoint: outputs.endpoints.dynamodb, credentials }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  return {
    outputs,
    supplier,
    manager,
    db,
    traffic: { apiRequests: 0, apiBytes: 0, s3Posts: 0, s3Gets: 0 },
  };
}

interface CallOptions {
  readonly path?: Record<string, string>;
  readonly query?: Record<string, string | number>;
  readonly body?: unknown;
}

async function call<T>(session: Session, token: string, def: RouteDef, options: CallOptions = {}): Promise<T> {
  const url = new URL(session.outputs.apiUrl + buildPath(def, options.path));
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, String(value));
  const response = await fetch(url, {
    method: def.method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  session.traffic.apiRequests += 1;
  session.traffic.apiBytes += Buffer.byteLength(text);
  if (response.status >= 300) throw new Error(`${def.method} ${url.pathname}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** The bench's waits for the asynchronous steps (`until`): up to two minutes each, asking every 200 ms. */
const WAIT = { timeout: 120_000, interval: 200 } as const;

async function sap(outputs: LocalOutputs, route: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${outputs.endpoints.sap}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`SAP simulator ${route}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** Runs one of the stage's scheduled jobs now, through the SAP simulator's control API, and waits for it. */
async function runSchedule(outputs: LocalOutputs, id: string): Promise<void> {
  const { run } = (await sap(outputs, `/__control/schedules/${id}`, {})) as { run: number };
  await until(
    async () => {
      const state = (await sap(outputs, `/__control/schedules/${id}`)) as {
        completed: number;
        lastError: string | null;
      };
      if (state.completed >= run && state.lastError) throw new Error(state.lastError);
      return state.completed >= run;
    },
    { message: `the ${id} job`, ...WAIT },
  );
}

const runPaymentSync = (outputs: LocalOutputs) => runSchedule(outputs, SCHEDULES.paymentSync.id);

/**
 * The staff's «Resumen diario» of what happened until now (docs/adr/0039-staff-daily-digest.md): the stage's clock a
 * day ahead, so that the digest's 24 hours hold the invoices just lived, then back on real time. Once per stage and
 * day: a digest already sent to a staff member for that day is not sent again.
 */
export async function sendDailyDigest(outputs: LocalOutputs): Promise<void> {
  await advanceStageClock(outputs.dataDir, 86_400);
  try {
    await runSchedule(outputs, SCHEDULES.dailyDigest.id);
  } finally {
    await resetStageClock(outputs.dataDir);
  }
}

async function stored(session: Session, invoiceId: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await session.db.send(
    new GetCommand({ TableName: session.outputs.tableName, Key: keys.invoice(SUPPLIER.taxId, 'FACTURA', invoiceId) }),
  );
  return Item;
}

const XML = readFileSync(path.join(ROOT_DIR, 'tests/fixtures/ubl/factura-ubl21-credito.xml'), 'utf8');

/** The supplier uploads the XML and registers it; returns the invoice's id. */
async function intake(session: Session): Promise<string> {
  // A correlative of its own for every invoice, one the SUNAT simulator answers valid at once.
  const correlative = freshCorrelative();
  const bytes = Buffer.from(XML.replaceAll('F001-00000458', `F001-${correlative.padStart(8, '0')}`));
  const ticket = await call<UploadTicket>(session, session.supplier, routes.createUpload, {
    body: {
      purpose: 'INVOICE_XML',
      fileName: `F001-${correlative}.xml`,
      contentType: 'application/xml',
      size: bytes.length,
    },
  });
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.fields)) form.append(name, value);
  form.append('file', new Blob([bytes], { type: 'application/xml' }), `F001-${correlative}.xml`);
  const upload = await fetch(ticket.url, { method: 'POST', body: form });
  await upload.arrayBuffer();
  if (upload.status >= 300) throw new Error(`The bucket refused the XML: ${upload.status}`);
  session.traffic.s3Posts += 1;
  const invoice = await call<Invoice>(session, session.supplier, routes.createInvoiceFromXml, {
    body: { url: ticket.key },
  });
  return invoice.id;
}

/** The manager opens the completion form, completes the invoice with SAP's documents, and approves it. */
async function completeAndApprove(session: Session, invoiceId: string, sequence: number): Promise<void> {
  const order = `45${String(Date.now() % 10_000_000).padStart(7, '0')}${sequence % 10}`;
  const hes = `H${order}`;
  const doc = {
    documentId: hes,
    purchaseOrder: order,
    fiscalYear: '2026',
    issuerTaxId: SUPPLIER.taxId,
    acquirerTaxId: COMPANY.taxId,
    deliveryNote: null,
    amount: 10000,
    currency: 'PEN',
    responsible: null,
    associatedInvoice: null,
    claimedBy: null,
  };
  const table = session.outputs.tableName;
  await session.db.send(
    new PutCommand({
      TableName: table,
      Item: {
        ...keys.purchaseOrder(COMPANY.taxId, order),
        id: order,
        issuerTaxId: SUPPLIER.taxId,
        acquirerTaxId: COMPANY.taxId,
        currency: 'PEN',
      },
    }),
  );
  await session.db.send(
    new PutCommand({
      TableName: table,
      Item: {
        ...keys.conformity('SERVICE_SHEET', COMPANY.taxId, hes),
        ...keys.conformityIndexes('SERVICE_SHEET', doc),
        kind: 'SERVICE_SHEET',
        ...doc,
      },
    }),
  );
  await sap(session.outputs, '/__control/documents', {
    purchaseOrders: [{ id: order, issuerTaxId: SUPPLIER.taxId, acquirerTaxId: COMPANY.taxId, currency: 'PEN' }],
    conformityDocuments: [{ kind: 'SERVICE_SHEET', ...doc }],
  });

  const invoicePath = { supplierId: SUPPLIER.taxId, invoiceType: 'FACTURA', invoiceId };
  const office = OFFICE_LOCATIONS[COMPANY.taxId]![0]!;
  // The completion form's lists, and the suggestions for the purchase order typed.
  await call(session, session.manager, routes.listEmployees, { query: { acquirer: COMPANY.taxId } });
  await call(session, session.manager, routes.listOfficeLocations, { query: { taxId: COMPANY.taxId } });
  await call(session, session.manager, routes.suggestConformityDocuments, {
    path: invoicePath,
    query: { purchaseOrder: order },
  });
  await call(session, session.manager, routes.updateInvoice, {
    path: invoicePath,
    body: {
      operationType: 'SERVICES',
      responsibleId: EMPLOYEES[COMPANY.taxId]![0]!.id,
      officeId: office.office,
      locationId: office.id,
      purchaseOrders: [order],
      serviceSheets: [hes],
    },
  });
  await call(session, session.manager, routes.approveInvoice, { path: invoicePath });
}

/** The views one invoice brings in a month (VIEWS), as the web app makes them. */
async function views(session: Session, invoiceId: string, sequence: number): Promise<void> {
  const invoicePath = { supplierId: SUPPLIER.taxId, invoiceType: 'FACTURA', invoiceId };
  // The invoices screen: a page of 50 and the tab's count.
  const listView = async (token: string, query: Record<string, string | number>) => {
    await call(session, token, routes.listInvoices, { query: { ...query, limit: 50 } });
    await call(session, token, routes.countInvoices, { query });
  };
  // The invoice's side panel: the detail, its history and its conversation.
  const detailView = async (token: string) => {
    await call(session, token, routes.getInvoice, { path: invoicePath });
    await call(session, token, routes.listInvoiceHistory, { path: invoicePath });
    await call(session, token, routes.listInvoiceMessages, { path: invoicePath });
  };
  for (let i = 0; i < VIEWS.supplierListViews; i++) await listView(session.supplier, {});
  for (let i = 0; i < VIEWS.supplierDetailViews; i++) await detailView(session.supplier);
  for (let i = 0; i < VIEWS.supplierFeedViews; i++) {
    await call(session, session.supplier, routes.listNotifications);
    await call(session, session.supplier, routes.markNotificationsAsRead, { body: {} });
  }
  for (let i = 0; i < VIEWS.staffListViews; i++) await listView(session.manager, { invoiceStatus: 'PENDING' });
  for (let i = 0; i < VIEWS.staffDetailViews; i++) await detailView(session.manager);
  for (let i = 0; i < VIEWS.staffFileViews; i++) {
    const link = await call<{ url: string }>(session, session.manager, routes.getInvoiceFile, {
      path: invoicePath,
      query: { file: 'xml' },
    });
    const file = await fetch(link.url);
    await file.arrayBuffer();
    if (file.status >= 300) throw new Error(`The bucket refused the download: ${file.status}`);
    session.traffic.s3Gets += 1;
  }
  if (sequence % VIEWS.dashboardEveryInvoices === 0) {
    await call(session, session.manager, routes.getDashboard, { query: { client: COMPANY.taxId } });
  }
}

/**
 * `count` invoices through their whole life, `concurrency` at a time, then the payment runs that schedule and pay
 * them all (one PaymentSync run each, as the job finds every invoice of a run at once), then the views.
 */
export async function livesOfInvoices(session: Session, count: number, concurrency = 4): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const sequence = next++;
      const id = await intake(session);
      await until(async () => (await stored(session, id))?.certStatus === 'VALID', {
        message: `SUNAT's answer on ${id}`,
        ...WAIT,
      });
      await completeAndApprove(session, id, sequence);
      await until(async () => Boolean((await stored(session, id))?.sapDocument), {
        message: `the MIRO posting of ${id}`,
        ...WAIT,
      });
      ids.push(id);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));

  const run = (paidAt?: string) => ({
    invoices: ids.map((invoiceId) => ({
      supplierId: SUPPLIER.taxId,
      invoiceId,
      invoiceType: 'FACTURA',
      scheduledAt: '2026-12-15',
      ...(paidAt ? { paidAt } : {}),
    })),
  });
  await sap(session.outputs, '/__control/payment-run', run());
  await runPaymentSync(session.outputs);
  await sap(session.outputs, '/__control/payment-run', run('2026-12-16'));
  await runPaymentSync(session.outputs);
  for (const id of ids)
    await until(async () => (await stored(session, id))?.status === 'PAID', { message: `${id} paid`, ...WAIT });

  for (const [sequence, id] of ids.entries()) await views(session, id, sequence);
  return ids;
}

/** The e-mails the local mailbox (SES's stand-in) holds. */
export async function mailboxSize(outputs: LocalOutputs): Promise<number> {
  const response = await fetch(`${outputs.endpoints.mailbox}/messages`);
  return ((await response.json()) as unknown[]).length;
}

export async function waitForMail(outputs: LocalOutputs, atLeast: number): Promise<number> {
  return until(
    async () => {
      const size = await mailboxSize(outputs);
      return size >= atLeast && size;
    },
    { message: 'the e-mails', ...WAIT },
  ).catch(() => mailboxSize(outputs));
}
