import yazl from 'yazl';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  INVOICE_STATUS_LABELS,
  ROUTES,
  keys,
  routes,
  staffOnlyFieldsIn,
  type Invoice,
  type InvoiceAuditEvent,
  type RouteDef,
  type RouteId,
} from '@portal/shared';
import { openSunatCheckItem } from '../../functions/src/repositories/sunat-checks.js';
import { call, type CallResult } from '../support/api.js';
import { anInvoice, between } from '../support/builders.js';
import { table } from '../support/fixtures.js';
import { freshCorrelative, managerToken, supplierToken, ublFactura } from '../support/invoices.js';
import { CLIENTS, SUPPLIERS } from '../support/tenant.js';
import { MINIMAL_PDF, uploadAs } from '../support/uploads.js';
import { until } from '../support/until.js';

/**
 * What a supplier reads (docs/adr/0049-fields-by-role.md): every route a supplier may call, called by the supplier
 * (its API clients read the same answers), on invoices of its own that hold every staff-only datum the portal keeps:
 * who approved, observed and answered (an e-mail), the RUC-risk override and its reason, the MIRO posting and its
 * SAP document, the CDR's contradiction, the audit's e-mails, accounts and call ids, the staff-only trail records.
 * Each datum carries this run's mark: no answer, list row or export file may hold it, nor any field the manifest
 * declares staff-only. The manager's reads of the same invoices hold them, so that the walk cannot pass by seeding
 * nothing.
 */
const MARK = `reservado${Date.now() % 1_000_000}`;
const STAFF_EMAIL = `revisor.${MARK}@grupo.pe`;
const SAP_NUMBER = `51${String(Date.now() % 100_000_000).padStart(8, '0')}`;
const COMPANY = CLIENTS[0]!;
const SUPPLIER = SUPPLIERS[0]!;
const leaks = (text: string) => text.includes(MARK) || text.includes(SAP_NUMBER);

let sequence = Date.now() % 1_000_000;
function invoiceOf(status: Invoice['status'], extra: Partial<Invoice>): Invoice {
  return anInvoice({
    prefixId: 'SV01',
    numericId: String(sequence++),
    status,
    approved: status === 'ACCEPTED',
    ...between(SUPPLIER, COMPANY),
    receivedAt: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    ...extra,
  });
}

const now = new Date().toISOString();
/** Approved despite the RUC's risk, posted in SAP, observed, answered under Ley 29623, with a contradicting CDR. */
const approved = invoiceOf('ACCEPTED', {
  statusHistory: [
    { status: 'PENDING', title: INVOICE_STATUS_LABELS.PENDING, additionalMessage: null, date: now, by: null },
    { status: 'ACCEPTED', title: INVOICE_STATUS_LABELS.ACCEPTED, additionalMessage: null, date: now, by: STAFF_EMAIL },
  ],
  approvedAt: now,
  sapDocument: { number: SAP_NUMBER, fiscalYear: '2026' },
  rucRiskOverride: {
    by: STAFF_EMAIL,
    at: now,
    reason: `Aprobado por gerencia (${MARK})`,
    estadoRuc: 'SUSPENSION TEMPORAL',
    condDomiRuc: 'HABIDO',
  },
  observation: { since: now, by: STAFF_EMAIL, reason: 'Adjunte la guía de remisión firmada.' },
  acquirerConformity: {
    countedFrom: now.slice(0, 10),
    countedFromBasis: 'RECEPTION',
    deadline: now.slice(0, 10),
    state: 'CONFORMITY',
    answers: [{ decision: 'CONFORMITY', cause: null, reason: null, at: now, by: STAFF_EMAIL }],
    presumedAt: null,
  },
  supplierCdr: {
    responseCode: '0',
    description: 'La Factura ha sido aceptada',
    verdict: 'ACCEPTED',
    documentId: 'SV01-1',
    senderTaxId: SUPPLIER.taxId,
    responseDate: now.slice(0, 10),
    notes: [],
    fileKey: 'cdr/key.xml',
    receivedAt: now,
    contradiction: { reasons: [{ kind: 'ACCEPTED_BUT_NOT_VALID', message: `Contradicción ${MARK}` }], flaggedAt: now },
  },
});
/** Waiting for SUNAT again, at a manager's request. */
const waiting = invoiceOf('PENDING', { certStatus: 'PENDING' });

const audit = (action: InvoiceAuditEvent['action'], changes: InvoiceAuditEvent['changes'], note: string | null) => {
  const event: InvoiceAuditEvent = {
    id: `${action}-${sequence++}`,
    occurredAt: now,
    action,
    actor: { id: `cuenta-${MARK}`, name: 'Revisora', email: STAFF_EMAIL, role: 'ADMIN', signIn: 'CORPORATE' },
    changes,
    note,
    txId: `tx-${MARK}`,
  };
  return { ...keys.invoiceAudit(approved, event.occurredAt, event.id), ...event };
};

beforeAll(async () => {
  const store = table();
  await store.putInvoices([approved, waiting]);
  const miro = keys.miroOutbox(approved.supplierId, approved.type, approved.id);
  await store.put({
    ...miro,
    state: 'POSTED',
    idempotencyKey: miro.pk,
    supplierId: approved.supplierId,
    invoiceType: approved.type,
    invoiceId: approved.id,
    client: approved.client,
    requestedBy: STAFF_EMAIL,
    createdAt: now,
    attempts: 2,
    lastError: `SAP ${MARK}`,
    sapDocument: { number: SAP_NUMBER, fiscalYear: '2026' },
    postedAt: now,
    notifiedAt: now,
  });
  await store.put(
    openSunatCheckItem(waiting, {
      pendingSince: new Date(),
      dueAt: new Date(Date.now() + 365 * 86_400_000),
      outgoingId: null,
      requestedBy: STAFF_EMAIL,
    }),
  );
  for (const item of [
    audit(
      'APPROVED_DESPITE_RUC_RISK',
      [
        { field: 'status', before: 'COMPLETED', after: 'ACCEPTED' },
        { field: 'rucRiskOverride', before: null, after: `Aprobado por gerencia (${MARK})` },
      ],
      `Aprobado por gerencia (${MARK})`,
    ),
    audit('SAP_POSTING_FAILED', [{ field: 'statusMessage', before: null, after: `SAP ${MARK}` }], null),
    audit('SAP_POSTED', [{ field: 'sapDocument', before: null, after: `${SAP_NUMBER}/2026` }], null),
    audit('SUNAT_CHECKED', [{ field: 'cdrContradiction', before: null, after: 'Sí' }], null),
  ]) {
    await store.put(item);
  }
});

const pathOf = (invoice: Invoice) => ({
  supplierId: invoice.supplierId,
  invoiceType: invoice.type,
  invoiceId: invoice.id,
});

async function zipWith(name: string, bytes: Buffer): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(bytes, name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** What each route is called with, as the supplier; the answers come back in order. Reads first, writes after. */
type Probe = (token: string) => Promise<CallResult>;
const created: { exportId?: string; batchId?: string; messageId?: string } = {};
const PROBES: Record<string, Probe> = {
  getCurrentUser: (token) => call(routes.getCurrentUser, { token }),
  verifySession: (token) => call(routes.verifySession, { token, body: {} }),
  listClients: (token) => call(routes.listClients, { token }),
  listInvoices: (token) => call(routes.listInvoices, { token, query: { search: 'SV01', limit: 50 } }),
  countInvoices: (token) => call(routes.countInvoices, { token, query: { search: 'SV01' } }),
  getInvoice: (token) => call(routes.getInvoice, { token, path: pathOf(approved) }),
  listInvoiceHistory: (token) => call(routes.listInvoiceHistory, { token, path: pathOf(approved) }),
  listInvoiceMessages: (token) => call(routes.listInvoiceMessages, { token, path: pathOf(approved) }),
  getInvoiceFile: (token) => call(routes.getInvoiceFile, { token, path: pathOf(approved), query: { file: 'pdf' } }),
  countWaitingConversations: (token) => call(routes.countWaitingConversations, { token }),
  listNotifications: (token) => call(routes.listNotifications, { token }),
  listIntakeBatches: (token) => call(routes.listIntakeBatches, { token }),
  createUpload: (token) =>
    call(routes.createUpload, {
      token,
      body: { purpose: 'INVOICE_PDF', fileName: 'comprobante.pdf', contentType: 'application/pdf', size: 10 },
    }),
  createInvoiceFromXml: async (token) => {
    const factura = ublFactura(freshCorrelative());
    const url = await uploadAs(token, 'INVOICE_XML', factura.bytes, 'application/xml', 'factura.xml');
    return call(routes.createInvoiceFromXml, { token, body: { url } });
  },
  createInvoiceWithoutXml: async (token) => {
    const pdfUrl = await uploadAs(token, 'INVOICE_PDF', MINIMAL_PDF, 'application/pdf', 'comprobante.pdf');
    return call(routes.createInvoiceWithoutXml, {
      token,
      body: {
        prefixId: 'F007',
        numericId: freshCorrelative(),
        type: 'FACTURA',
        clientTaxId: COMPANY.taxId,
        supplierTaxId: SUPPLIER.taxId,
        currency: 'PEN',
        amount: 1180,
        taxAmount: 180,
        issueDate: now.slice(0, 10),
        pdfUrl,
      },
    });
  },
  postInvoiceMessage: async (token) => {
    const answer = await call(routes.postInvoiceMessage, {
      token,
      path: pathOf(approved),
      body: { text: 'Adjunto la guía en un momento.' },
    });
    created.messageId = answer.body?.message?.id ?? answer.body?.id;
    return answer;
  },
  getInvoiceMessageFile: (token) =>
    call(routes.getInvoiceMessageFile, {
      token,
      path: { ...pathOf(approved), messageId: created.messageId ?? 'sin-mensaje' },
      query: { index: 0 },
    }),
  markNotificationsAsRead: (token) => call(routes.markNotificationsAsRead, { token, body: {} }),
  getNotificationPreferences: (token) => call(routes.getNotificationPreferences, { token }),
  // Every kind left on (the defaults), so the supplier's feed and mail stay as the other files expect them.
  putNotificationPreferences: (token) =>
    call(routes.putNotificationPreferences, {
      token,
      body: { items: [{ kind: 'SUNAT_VALID', feed: true, email: null }] },
    }),
  createExport: async (token) => {
    const answer = await call(routes.createExport, {
      token,
      body: { list: 'invoices', format: 'csv', filters: { search: 'SV01' } },
    });
    created.exportId = answer.body?.id;
    return answer;
  },
  getExport: (token) => call(routes.getExport, { token, path: { exportId: created.exportId! } }),
  createIntakeBatch: async (token) => {
    const zip = await zipWith('leame.txt', Buffer.from('Sin comprobantes'));
    const url = await uploadAs(token, 'INVOICE_ZIP', zip, 'application/zip', 'lote.zip');
    const answer = await call(routes.createIntakeBatch, { token, body: { url } });
    created.batchId = answer.body?.id;
    return answer;
  },
  getIntakeBatch: (token) => call(routes.getIntakeBatch, { token, path: { batchId: created.batchId! } }),
};

const supplierRoutes = ROUTES.filter(
  (def) => def.auth === 'jwt' && (def.roles as readonly string[]).includes('SUPPLIER'),
);

describe('a supplier reads no staff-only datum', () => {
  it('has a probe for every route a supplier may call', () => {
    expect(Object.keys(PROBES).sort()).toEqual(supplierRoutes.map((def) => def.id).sort());
  });

  it("holds the marked data in the manager's reads of the same invoices (the walk's control)", async () => {
    const token = await managerToken();
    const detail = await call(routes.getInvoice, { token, path: pathOf(approved) });
    expect(detail.status).toBe(200);
    expect(staffOnlyFieldsIn(routes.getInvoice.response, detail.body)).toEqual(
      expect.arrayContaining(['statusHistory[1].by', 'sapDocument', 'rucRiskOverride', 'observation.by', 'sapPosting']),
    );
    const history = await call(routes.listInvoiceHistory, { token, path: pathOf(approved) });
    expect(leaks(JSON.stringify(history.body))).toBe(true);
    const pending = await call(routes.getInvoice, { token, path: pathOf(waiting) });
    expect(pending.body.sunatCheck?.requestedBy).toBe(STAFF_EMAIL);
  });

  it('walks every route as the supplier: no answer, list row or file holds one', async () => {
    const token = await supplierToken();
    const answers: { id: RouteId; answer: CallResult }[] = [];
    for (const def of supplierRoutes) {
      const answer = await PROBES[def.id]!(token);
      answers.push({ id: def.id as RouteId, answer });
    }
    // The same reads of the waiting invoice, the list's rows and the history's pages.
    answers.push({ id: 'getInvoice', answer: await call(routes.getInvoice, { token, path: pathOf(waiting) }) });

    for (const { id, answer } of answers) {
      const def: RouteDef = routes[id];
      const text = JSON.stringify(answer.body);
      expect(answer.status, `${id}: ${text}`).toBeLessThan(500);
      expect(leaks(text), `${id} answered a staff-only datum: ${text}`).toBe(false);
      if (answer.status < 300) expect(staffOnlyFieldsIn(def.response, answer.body), id).toEqual([]);
    }
    // The reads answered the supplier's own invoices, not a refusal that would hide nothing.
    const byId = new Map<RouteId, CallResult>();
    for (const { id, answer } of answers) if (!byId.has(id)) byId.set(id, answer);
    expect(byId.get('getInvoice')!.status).toBe(200);
    expect(byId.get('getInvoice')!.body).toMatchObject({ id: approved.id, status: 'ACCEPTED', amount: 1180 });
    expect(byId.get('listInvoices')!.body.items.map((row: Invoice) => row.id)).toEqual(
      expect.arrayContaining([approved.id, waiting.id]),
    );
    const trail = byId.get('listInvoiceHistory')!.body.items as InvoiceAuditEvent[];
    expect(trail.map((event) => event.action)).toEqual(['APPROVED']);
    expect(byId.get('listInvoiceMessages')!.status).toBe(200);

    // The export's file: the rows are there, their staff-only data are not.
    const job = await until(
      async () => {
        const read = await call(routes.getExport, { token, path: { exportId: created.exportId! } });
        return read.body.status === 'READY' && read.body;
      },
      { message: 'the export' },
    );
    const file = await (await fetch(job.url)).text();
    expect(file).toContain(approved.id);
    expect(leaks(file)).toBe(false);
    // The zip's batch, once ended, answers its results without any either.
    const batch = await until(
      async () => {
        const read = await call(routes.getIntakeBatch, { token, path: { batchId: created.batchId! } });
        return read.body.finishedAt && read;
      },
      { message: 'the zip' },
    );
    expect(leaks(JSON.stringify(batch.body))).toBe(false);
    expect(staffOnlyFieldsIn(routes.getIntakeBatch.response, batch.body)).toEqual([]);
  }, 90_000);
});
