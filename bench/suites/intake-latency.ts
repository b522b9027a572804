import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { HEADERS, keys, routes, type Invoice, type InvoiceSummary, type UploadTicket } from '@portal/shared';
import { ROOT_DIR } from '../../local/runtime/config.js';
import type { LocalOutputs } from '../../local/runtime/outputs.js';
import { CLIENTS, EMPLOYEES, OFFICE_LOCATIONS, SUPPLIERS } from '../../local/seed/seed-data.js';
import { percentile, type BenchSuite, type Figure } from '../lib/figures.js';
import { managerToken, supplierToken } from '../lib/sign-in.js';
import { stageDb } from '../lib/stage-db.js';
import { freshCorrelative } from '../../tests/support/invoices.js';
import { until } from '../../tests/support/until.js';

/** The intake latency target: at least 50 invoices, one after the other; p50 ≤ 2 s for each leg. */
const INVOICES = { full: 50, quick: 10 };
const MAX_SECONDS = 2;
/** How often the supplier's list and SAP's postings are read while waiting (the figures' resolution). */
const POLL_MS = 50;
/** A leg that takes longer has failed (a worker that never ran, a message lost). */
const GIVE_UP_MS = 60_000;

const SUPPLIER = SUPPLIERS[0]!;
const COMPANY = CLIENTS[0]!;
/** A series of its own, so that these facturas never meet the tests' or the other suites'. */
const SERIES = 'F025';
/** The corpus factura's amounts: 10,000.00 + IGV 1,800.00. */
const NET_AMOUNT = 10_000;

interface Tokens {
  readonly supplier: string;
  readonly manager: string;
}

async function signIn(outputs: LocalOutputs): Promise<Tokens> {
  const [supplier, manager] = await Promise.all([supplierToken(outputs), managerToken(outputs)]);
  return { supplier, manager };
}

async function api<T>(
  apiUrl: string,
  token: string,
  method: string,
  route: string,
  body?: unknown,
  company?: string,
): Promise<T> {
  const response = await fetch(`${apiUrl}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(company ? { [HEADERS.companyId]: company } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await response.json()) as T;
  if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

async function sapControl<T>(sap: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${sap}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as T;
  if (response.status >= 300) throw new Error(`SAP ${route}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** Reads until `probe` answers, every POLL_MS, up to GIVE_UP_MS after `started`: the moment it said yes. */
async function answeredAt(what: string, started: number, probe: () => Promise<boolean>): Promise<number> {
  await until(probe, { timeout: GIVE_UP_MS - (performance.now() - started), interval: POLL_MS, message: what });
  return performance.now();
}

/** The facturas' correlatives: new ones each run, each one the SUNAT simulator answers valid at once. */
const correlatives = (count: number): string[] => Array.from({ length: count }, freshCorrelative);

/** One intake's milliseconds: in all, and its legs (ticket and upload, POST /invoices, its answer to VALID listed). */
interface IntakeTimes {
  readonly total: number;
  readonly upload: number;
  readonly register: number;
  readonly valid: number;
}

/** One approval's milliseconds: in all, and its legs (POST approve, its answer to the posting at SAP). */
interface ApprovalTimes {
  readonly total: number;
  readonly approve: number;
  readonly posted: number;
}

/**
 * 'Cargar XML' as the web app does it (ticket, presigned POST of the file, POST /invoices), then the supplier's
 * list (the header search for the invoice, as the list screen reads it) until the row says VALID: milliseconds
 * from the ticket's request to the list's answer.
 */
async function intakeOnce(apiUrl: string, token: string, xml: Buffer, id: string): Promise<IntakeTimes> {
  const started = performance.now();
  const ticket = await api<UploadTicket>(apiUrl, token, 'POST', routes.createUpload.path, {
    purpose: 'INVOICE_XML',
    fileName: `${id}.xml`,
    contentType: 'application/xml',
    size: xml.length,
  });
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.fields)) form.append(name, value);
  form.append('file', new Blob([xml], { type: 'application/xml' }), `${id}.xml`);
  const stored = await fetch(ticket.url, { method: 'POST', body: form });
  await stored.arrayBuffer();
  if (stored.status >= 300) throw new Error(`The bucket refused ${id}: ${stored.status}`);
  const uploaded = performance.now();
  const created = await api<Invoice>(apiUrl, token, 'POST', routes.createInvoiceFromXml.path, { url: ticket.key });
  const registered = performance.now();
  if (created.id !== id) throw new Error(`POST /invoices registered ${created.id}, not ${id}`);
  const query = new URLSearchParams({ search: id, limit: '50' });
  const shown = await answeredAt(`${id} VALID in the supplier's list`, started, async () => {
    const page = await api<{ items: InvoiceSummary[] }>(apiUrl, token, 'GET', `/invoices?${query.toString()}`);
    const row = page.items.find((item) => item.id === id && item.type === 'FACTURA');
    return row?.certStatus === 'VALID';
  });
  return {
    total: shown - started,
    upload: uploaded - started,
    register: registered - uploaded,
    valid: shown - registered,
  };
}

/** A purchase order and its service sheet for each invoice, in the table and at SAP (where they come from). */
async function conformityFor(
  outputs: LocalOutputs,
  ids: readonly string[],
): Promise<Map<string, { po: string; hes: string }>> {
  const numero = (id: string) => id.split('-')[1]!.padStart(8, '0');
  const documents = new Map(ids.map((id) => [id, { po: `45${numero(id)}`, hes: `H25${numero(id)}` }]));
  const db = stageDb(outputs);
  try {
    const items = [...documents.values()].flatMap(({ po, hes }) => {
      const doc = {
        documentId: hes,
        purchaseOrder: po,
        fiscalYear: '2026',
        issuerTaxId: SUPPLIER.taxId,
        acquirerTaxId: COMPANY.taxId,
        deliveryNote: null,
        amount: NET_AMOUNT,
        currency: 'PEN',
        responsible: null,
        associatedInvoice: null,
        claimedBy: null,
      };
      return [
        {
          ...keys.purchaseOrder(COMPANY.taxId, po),
          id: po,
          issuerTaxId: SUPPLIER.taxId,
          acquirerTaxId: COMPANY.taxId,
          currency: 'PEN',
        },
        {
          ...keys.conformity('SERVICE_SHEET', COMPANY.taxId, hes),
          ...keys.conformityIndexes('SERVICE_SHEET', doc),
          kind: 'SERVICE_SHEET',
          ...doc,
        },
      ];
    });
    for (let start = 0; start < items.length; start += 25) {
      let unprocessed: unknown[] = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
      while (unprocessed.length > 0) {
        const written = await db.send(
          new BatchWriteCommand({ RequestItems: { [outputs.tableName]: unprocessed as never } }),
        );
        unprocessed = written.UnprocessedItems?.[outputs.tableName] ?? [];
      }
    }
  } finally {
    db.destroy();
  }
  await sapControl(outputs.endpoints.sap, '/__control/documents', {
    purchaseOrders: [...documents.values()].map(({ po }) => ({
      id: po,
      issuerTaxId: SUPPLIER.taxId,
      acquirerTaxId: COMPANY.taxId,
      currency: 'PEN',
    })),
    conformityDocuments: [...documents.values()].map(({ po, hes }) => ({
      kind: 'SERVICE_SHEET',
      documentId: hes,
      purchaseOrder: po,
      fiscalYear: '2026',
      issuerTaxId: SUPPLIER.taxId,
      acquirerTaxId: COMPANY.taxId,
      amount: NET_AMOUNT,
      currency: 'PEN',
    })),
  });
  return documents;
}

/**
 * The manager completes the invoice (not timed), then approves it: milliseconds from the approval's request to
 * SAP's simulator answering one posting for it (its control API, read every POLL_MS).
 */
async function approveOnce(
  apiUrl: string,
  sap: string,
  token: string,
  id: string,
  documents: { po: string; hes: string },
): Promise<ApprovalTimes> {
  const invoicePath = `/suppliers/${SUPPLIER.taxId}/invoices/FACTURA/${id}`;
  const office = OFFICE_LOCATIONS[COMPANY.taxId]![0]!;
  await api(
    apiUrl,
    token,
    'PUT',
    invoicePath,
    {
      operationType: 'SERVICES',
      responsibleId: EMPLOYEES[COMPANY.taxId]![0]!.id,
      officeId: office.office,
      locationId: office.id,
      purchaseOrders: [documents.po],
      serviceSheets: [documents.hes],
    },
    COMPANY.taxId,
  );
  const started = performance.now();
  await api(apiUrl, token, 'POST', `${invoicePath}/approve`, undefined, COMPANY.taxId);
  const approved = performance.now();
  const posted = await answeredAt(`the MIRO of ${id} at SAP`, started, async () => {
    const postings = await sapControl<{ byInvoice: Record<string, number> }>(
      sap,
      `/__control/postings?supplierId=${SUPPLIER.taxId}`,
    );
    return (postings.byInvoice[`${SUPPLIER.taxId}/${id}`] ?? 0) >= 1;
  });
  return { total: posted - started, approve: approved - started, posted: posted - approved };
}

const seconds = (ms: number) => Math.round(ms) / 1000;

interface Span {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | null;
  readonly name: string;
  readonly startTimeUnixNano: string;
  readonly endTimeUnixNano: string;
}

const spanMs = (span: Span) => Number(BigInt(span.endTimeUnixNano) - BigInt(span.startTimeUnixNano)) / 1e6;

/**
 * Where a handler's time goes, from the spans the stage's OTLP receiver kept: for the latest `count` invocation spans
 * named `name`, the median of each and of its direct children's time by name (a call made twice counts twice).
 */
async function breakdown(otlp: string, name: string, count: number): Promise<string> {
  // A worker's span is named after its queue, whose name the stage prefixes and lowers: matched by its end.
  const latest = ((await (await fetch(`${otlp}/api/spans?limit=10000`)).json()) as { spans: Span[] }).spans;
  const roots = latest
    .filter((span) => span.name === name || span.name.endsWith(`-${name.split(' ')[1]!.toLowerCase()}`))
    .slice(-count);
  const byChild = new Map<string, number[]>();
  for (const root of roots) {
    const trace = ((await (await fetch(`${otlp}/api/traces/${root.traceId}`)).json()) as { spans: Span[] }).spans;
    const totals = new Map<string, number>();
    for (const child of trace.filter((span) => span.parentSpanId === root.spanId)) {
      totals.set(child.name, (totals.get(child.name) ?? 0) + spanMs(child));
    }
    for (const [child, ms] of totals) byChild.set(child, [...(byChild.get(child) ?? []), ms]);
  }
  if (roots.length === 0) return `${name}: no spans`;
  const median = (values: number[]) => percentile(values, 50).toFixed(0);
  const children = [...byChild]
    .sort((a, b) => percentile(b[1], 50) - percentile(a[1], 50))
    .map(
      ([child, values]) => `${child} ${median(values)}${values.length < roots.length ? ` (in ${values.length})` : ''}`,
    );
  return `${name} ${median(roots.map(spanMs))} ms (${roots.length} spans): ${children.join(', ')}`;
}

/**
 * Intake end to end on the local stage, one invoice at a time (latency, not throughput): the supplier's
 * 'Cargar XML' until the supplier's list shows the invoice VALID (the SUNAT simulator answering at once), and the
 * manager's approval until the MIRO is posted at the SAP simulator. Every leg goes through the stage's gateway,
 * outbox, SQS stand-in and pollers as a deployed stage's would through API Gateway, SQS and Lambda. The p50 figure's
 * samples are the invoices' own times (their median is the p50); the p99 is reported beside it.
 */
export const suite: BenchSuite = {
  name: 'intake-latency',
  async run(context) {
    const count = context.quick ? INVOICES.quick : INVOICES.full;
    const stage = await context.stage();
    const tokens = await signIn(stage.outputs);
    const template = readFileSync(path.join(ROOT_DIR, 'tests/fixtures/ubl/factura-ubl21-credito.xml'), 'utf8');
    // The invoice's id is the series and the correlative without its leading zeros (the XML's has eight digits).
    const ids = correlatives(count + 1).map((numero) => `${SERIES}-${numero}`);
    const documents = await conformityFor(stage.outputs, ids);
    const xmlOf = (id: string) =>
      Buffer.from(template.replaceAll('F001-00000458', `${SERIES}-${id.slice(SERIES.length + 1).padStart(8, '0')}`));

    // A first invoice not counted: the handlers' and workers' first calls (module loads, connections).
    const [warmUp, ...measured] = ids as [string, ...string[]];
    await intakeOnce(stage.apiUrl, tokens.supplier, xmlOf(warmUp), warmUp);
    await approveOnce(stage.apiUrl, stage.outputs.endpoints.sap, tokens.manager, warmUp, documents.get(warmUp)!);

    const intake: IntakeTimes[] = [];
    for (const id of measured) intake.push(await intakeOnce(stage.apiUrl, tokens.supplier, xmlOf(id), id));
    const approval: ApprovalTimes[] = [];
    for (const id of measured) {
      approval.push(
        await approveOnce(stage.apiUrl, stage.outputs.endpoints.sap, tokens.manager, id, documents.get(id)!),
      );
    }
    const legs = <T>(times: readonly T[], keys: readonly (keyof T & string)[]) =>
      keys
        .map(
          (key) =>
            `${key} ${percentile(
              times.map((t) => t[key] as number),
              50,
            ).toFixed(0)}`,
        )
        .join(', ');
    context.log(`upload → VALID in the list (ms): ${intake.map((t) => t.total.toFixed(0)).join(' ')}`);
    context.log(`  p50 of its legs (ms): ${legs(intake, ['upload', 'register', 'valid'])}`);
    context.log(`approve → MIRO at SAP (ms): ${approval.map((t) => t.total.toFixed(0)).join(' ')}`);
    context.log(`  p50 of its legs (ms): ${legs(approval, ['approve', 'posted'])}`);
    // Where the handlers' time went, from their traces (medians, ms).
    const otlp = stage.outputs.endpoints.otlp;
    for (const span of [
      'POST /invoices',
      'process SunatValidation',
      'POST /suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}/approve',
      'process MiroRequests',
    ]) {
      context.log(`  ${await breakdown(otlp, span, count)}`);
    }

    const totals = intake.map((t) => t.total);
    const approvals = approval.map((t) => t.total);
    const figures: Figure[] = [
      {
        id: 'intake-latency.valid.p50',
        label: `Intake: upload's ticket to VALID in the supplier's list, p50 (${count} invoices, one at a time)`,
        unit: 's',
        samples: totals.map(seconds),
        target: { max: MAX_SECONDS },
      },
      {
        id: 'intake-latency.valid.p99',
        label: `Intake: upload's ticket to VALID in the supplier's list, p99 (${count} invoices)`,
        unit: 's',
        samples: [seconds(percentile(totals, 99))],
        inSummary: true,
      },
      {
        id: 'intake-latency.valid.after-post.p50',
        label: `Intake: POST /invoices answered to VALID in the supplier's list, p50 (${count} invoices)`,
        unit: 's',
        samples: intake.map((t) => seconds(t.valid)),
      },
      {
        id: 'intake-latency.miro.p50',
        label: `Approve to MIRO posted at the SAP simulator, p50 (${count} invoices, one at a time)`,
        unit: 's',
        samples: approvals.map(seconds),
        target: { max: MAX_SECONDS },
      },
      {
        id: 'intake-latency.miro.p99',
        label: `Approve to MIRO posted at the SAP simulator, p99 (${count} invoices)`,
        unit: 's',
        samples: [seconds(percentile(approvals, 99))],
        inSummary: true,
      },
    ];
    return figures;
  },
};
