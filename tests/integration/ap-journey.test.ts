import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDays,
  formatDate,
  keys,
  limaDayOf,
  netToPayLine,
  routes,
  withCheckDigit,
  type Invoice,
  type InvoiceDetail,
  type InvoiceSummary,
  type Notification,
} from '@portal/shared';
import { CLIENTS, NO_HABIDO_SUPPLIER, SUPPLIERS } from '../support/tenant.js';
import { answer, type AnswerContext } from '../../web/src/chat/answers.js';
import { understand } from '../../web/src/chat/intents.js';
import {
  creditFacturaXml,
  creditInvoiceFixture,
  moveStageClock,
  putStageClockBack,
  runConformityClock,
  stageTime,
} from '../support/acquirer-conformity.js';
import { call, type CallResult } from '../support/api.js';
import { mailbox, table } from '../support/fixtures.js';
import { freshCorrelative, randomCorrelative, supplierToken } from '../support/invoices.js';
import {
  adminToken,
  creditNoteXml,
  detailOf,
  managerToken,
  orderWithHes,
  pathOf,
  postedRecord,
  registered,
  reviewBody,
  validated,
} from '../support/notes.js';
import { demoUser } from '../support/stage.js';
import { uploadAs } from '../support/uploads.js';
import { until } from '../support/until.js';
import { stageSap } from '../support/sap.js';

/*
 * Accounts payable end to end, walked through the running local stage as its people would (docs/ap-payment.md,
 * docs/ap-notes-and-risk.md, docs/ap-conformity.md): the demo supplier (proveedor@demo.pe) uploads a factura a crédito
 * in two cuotas with a 12 % detracción to the demo manager's first company and a credit note of it; the manager
 * registers the conformity of Ley 29623, completes and approves both; SAP's simulator posts each once; the supplier
 * asks the assistant when it is paid; an invoice of the seed's NO HABIDO supplier waits for the administrator; and a
 * factura al crédito left alone is presumed conforme when the stage's clock passes its last day. What is asserted is what
 * the web app reads (the API's answers), the notices (feeds and the local mailbox) and SAP's journal of postings.
 *
 * The steps share their documents and run in order; the clock moves last, and is always put back.
 */
const COMPANY = CLIENTS[0]!;
const SUPPLIER = SUPPLIERS[0]!;
const SUPPLIER_EMAIL = demoUser('SUPPLIER').username;
const MANAGER_EMAIL = demoUser('MANAGER').username;
const STEP_TIMEOUT = 120_000;

type Posting = {
  document: string;
  fiscalYear: string;
  invoiceId: string;
  creditMemo?: boolean;
  adjusts?: { document: string; fiscalYear: string } | null;
  grossAmount?: number;
  purchaseOrders?: string[];
  withholdings?: { kind: string; baseAmount: number; amount: number }[];
};

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The company's first payment-run day on or after `due` (docs/ap-payment.md: a run day the month lacks is its last
 * day), computed here on its own so that the test does not check the portal against itself.
 */
function nextRunDay(due: string, runDays: readonly number[]): string {
  let [year, month] = due.split('-').map(Number) as [number, number];
  for (;;) {
    const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
    const days = [...new Set(runDays.map((day) => Math.min(day, last)))].sort((a, b) => a - b);
    const found = days.map((day) => `${year}-${pad(month)}-${pad(day)}`).find((date) => date >= due);
    if (found) return found;
    [year, month] = month === 12 ? [year + 1, 1] : [year, month + 1];
  }
}

const errorOf = (response: CallResult) => ({
  status: response.status,
  code: response.body?.errors?.[0]?.code,
  message: response.body?.message,
});

/** The row GET /invoices answers `token` for the invoice, found as the header's search finds it. */
async function listed(token: string, invoice: { id: string; type: string }, query: Record<string, string> = {}) {
  const page = await call<{ items: InvoiceSummary[] }>(routes.listInvoices, {
    token,
    query: { search: invoice.id, limit: 50, ...query },
  });
  expect(page.status).toBe(200);
  return page.body.items.find((item) => item.id === invoice.id && item.type === invoice.type);
}

/** The messages of the user's notifications panel (GET /notifications) about one invoice. */
async function notificationsAbout(token: string, invoiceId: string): Promise<string[]> {
  const response = await call<{ items: Notification[] }>(routes.listNotifications, { token });
  expect(response.status).toBe(200);
  return response.body.items.filter((item) => item.reference?.invoiceId === invoiceId).map((item) => item.message);
}

/** The e-mails the local mailbox received whose text says `text`, by recipient. */
async function mailsSaying(text: string): Promise<string[]> {
  return (await mailbox()).filter((mail) => mail.text.includes(text)).flatMap((mail) => mail.to);
}

async function postingsOf(supplierId: string) {
  return stageSap<{ byInvoice: Record<string, number>; postings: Posting[] }>(
    `/__control/postings?supplierId=${supplierId}`,
  );
}

describe('accounts payable end to end: payment terms, notes, the RUC gate, Ley 29623 and SAP, as users see them', () => {
  /** The stage's Lima day when the documents are issued and received. */
  let today: string;
  /** The factura a crédito (two cuotas, 12 % detracción) and its credit note. */
  let factura: Invoice;
  let note: Invoice;

  beforeAll(async () => {
    today = limaDayOf(stageTime());
  });

  afterAll(async () => {
    await putStageClockBack();
  });

  /** The demo supplier uploads the corpus factura al crédito, numbered for this run and issued today, as the web app does. */
  async function uploadCreditFactura(token: string): Promise<Invoice> {
    const numericId = freshCorrelative();
    const xml = creditFacturaXml({ numericId, issuedAt: today });
    const url = await uploadAs(token, 'INVOICE_XML', xml, 'application/xml', `F001-${numericId}.xml`);
    const created = await call<Invoice>(routes.createInvoiceFromXml, { token, body: { url } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ id: `F001-${numericId}`, client: COMPANY.taxId, supplierId: SUPPLIER.taxId });
    return created.body;
  }

  it(
    '1. the supplier uploads a factura al crédito: the list shows its payment date, the detail its net to pay and conformity deadline',
    async () => {
      const supplier = await supplierToken();

      factura = await uploadCreditFactura(supplier);

      // Two cuotas, 30 and 60 days after the issue; paid on the company's next run day (the 15th or the 30th).
      const lastCuota = addDays(today, 60);
      const expectedPaymentDate = nextRunDay(lastCuota, COMPANY.paymentRunDays ?? []);
      const row = await listed(supplier, factura);
      expect(row?.payment).toMatchObject({
        method: 'CREDITO',
        dueDate: lastCuota,
        expectedPaymentDate,
        movedToPaymentRun: expectedPaymentDate !== lastCuota,
      });
      expect(row?.acquirerConformity).toMatchObject({ state: 'OPEN', deadline: addDays(today, 8), daysLeft: 8 });

      const detail = await detailOf(factura, supplier);
      expect(detail.payment).toMatchObject({
        installments: [
          { number: 1, amount: 5192, dueDate: addDays(today, 30) },
          { number: 2, amount: 5192, dueDate: lastCuota },
        ],
        detraction: { code: '037', percent: 12, amount: 1416, currency: 'PEN', account: '00-068-123456' },
        // Corporación Andina is no agente de retención, and a document with detracción is never retained.
        igvRetention: null,
        netToPay: 11_800 - 1_416,
        warnings: [],
      });
      // What the sidebar's 'Pago' section prints.
      expect(netToPayLine(detail.payment!, detail.currency)).toBe(
        'Detracción S/ 1,416.00 (12 %) · Neto a pagar S/ 10,384.00',
      );
      expect(detail.acquirerConformity).toMatchObject({
        state: 'OPEN',
        countedFrom: today,
        deadline: addDays(today, 8),
        daysLeft: 8,
        answerableUntil: addDays(today, 8),
      });
    },
    STEP_TIMEOUT,
  );

  it(
    '2. the supplier uploads a credit note of it: the note names its original, the original lists the note, nothing counts yet',
    async () => {
      const supplier = await supplierToken();
      const numericId = randomCorrelative();
      const url = await uploadAs(
        supplier,
        'INVOICE_XML',
        creditNoteXml({ numericId, original: factura }),
        'application/xml',
        `FC01-${numericId}.xml`,
      );

      const created = await call<Invoice>(routes.createInvoiceFromXml, { token: supplier, body: { url } });

      expect(created.status, JSON.stringify(created.body)).toBe(201);
      note = created.body;
      expect(note).toMatchObject({ type: 'NOTA_DE_CREDITO', id: `FC01-${numericId}`, amount: 1_180 });
      const noteDetail = await detailOf(note, supplier);
      expect(noteDetail).toMatchObject({
        billingReference: { type: 'FACTURA', id: factura.id },
        noteReason: { code: '07', label: 'Devolución por ítem' },
        originalInPortal: true,
        original: { supplierId: SUPPLIER.taxId, type: 'FACTURA', id: factura.id, amount: 11_800 },
      });
      const original = await detailOf(factura, supplier);
      expect(original.linkedNotes).toEqual([
        expect.objectContaining({ type: 'NOTA_DE_CREDITO', id: note.id, amount: 1_180, status: 'PENDING' }),
      ]);
      // A note under review changes nothing of what is paid (only accepted notes count).
      expect(original.amountToPay ?? original.amount).toBe(11_800);
    },
    STEP_TIMEOUT,
  );

  it(
    '3. the manager registers the conformity of Ley 29623 on the factura, and the supplier is told',
    async () => {
      const manager = await managerToken();

      const registered = await call<InvoiceDetail>(routes.registerAcquirerConformity, {
        token: manager,
        path: pathOf(factura),
        body: { decision: 'CONFORMITY', reason: 'Conformidad registrada en SUNAT Operaciones en Línea.' },
      });

      expect(registered.status, JSON.stringify(registered.body)).toBe(200);
      expect(registered.body.acquirerConformity).toMatchObject({
        state: 'CONFORMITY',
        answers: [{ decision: 'CONFORMITY', by: MANAGER_EMAIL }],
        answerableUntil: null,
      });
      expect(registered.body.statusHistory.at(-1)).toMatchObject({
        title: 'Conformidad registrada (Ley 29623)',
        additionalMessage: 'Conformidad registrada en SUNAT Operaciones en Línea.',
      });
      const told = `${COMPANY.name} registró su conformidad con la factura ${factura.id} (Ley 29623).`;
      const supplier = await supplierToken();
      await until(async () => (await notificationsAbout(supplier, factura.id)).includes(told), {
        message: 'the supplier told of the conformity',
      });
      // The worker writes the feeds first and then e-mails: the mail may arrive a moment after the notice.
      await until(async () => (await mailsSaying(told)).includes(SUPPLIER_EMAIL), {
        message: 'the supplier e-mailed of the conformity',
      });
    },
    STEP_TIMEOUT,
  );

  it(
    '2 and 6. the manager approves the factura and then its credit note: the amount to pay drops, SAP posts each once',
    async () => {
      const manager = await managerToken();
      const supplier = await supplierToken();
      await validated(factura);
      await validated(note);
      const { order, hes } = await orderWithHes(SUPPLIER.taxId, COMPANY.taxId, 10_000);

      // The factura: completed with its order and HES, approved; the supplier is told when it expects the money.
      const completed = await call<InvoiceDetail>(routes.updateInvoice, {
        token: manager,
        path: pathOf(factura),
        body: reviewBody(COMPANY.taxId, { purchaseOrders: [order], serviceSheets: [hes] }),
      });
      expect(completed.status, JSON.stringify(completed.body)).toBe(200);
      const approved = await call<InvoiceDetail>(routes.approveInvoice, { token: manager, path: pathOf(factura) });
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      expect(approved.body.status).toBe('ACCEPTED');
      const expected = formatDate(approved.body.payment!.expectedPaymentDate!);
      await until(
        async () =>
          (await notificationsAbout(supplier, factura.id)).includes(
            `${COMPANY.name} aprobó la factura ${factura.id}. Fecha de pago estimada: ${expected}.`,
          ),
        { message: 'the approval notice with its payment date' },
      );
      const posted = await postedRecord(factura);

      // The note: reviewed as an adjustment of its original (its operation type and orders), approved.
      const noteCompleted = await call<InvoiceDetail>(routes.updateInvoice, {
        token: manager,
        path: pathOf(note),
        body: reviewBody(COMPANY.taxId, { operationType: 'SERVICES', purchaseOrders: [order] }),
      });
      expect(noteCompleted.status, JSON.stringify(noteCompleted.body)).toBe(200);
      const noteApproved = await call<InvoiceDetail>(routes.approveInvoice, { token: manager, path: pathOf(note) });
      expect(noteApproved.status, JSON.stringify(noteApproved.body)).toBe(200);
      await postedRecord(note);

      // The original's amount to pay, in its detail and in the list's amount cell, for both sides.
      for (const token of [supplier, manager]) {
        const original = await detailOf(factura, token);
        expect(original).toMatchObject({
          amount: 11_800,
          amountToPay: 10_620,
          noteAdjustments: { credited: 1_180, debited: 0 },
        });
        expect(original.linkedNotes).toEqual([expect.objectContaining({ id: note.id, status: 'ACCEPTED' })]);
        expect(await listed(token, factura)).toMatchObject({ amount: 11_800, amountToPay: 10_620 });
      }

      // SAP's journal: the factura once, with its detracción; the credit note once, as a credit memo of it.
      const { byInvoice, postings } = await postingsOf(SUPPLIER.taxId);
      expect(byInvoice[`${SUPPLIER.taxId}/${factura.id}`]).toBe(1);
      expect(byInvoice[`${SUPPLIER.taxId}/${note.id}`]).toBe(1);
      const miro = postings.filter((posting) => posting.invoiceId === factura.id);
      expect(miro).toEqual([
        expect.objectContaining({
          document: posted.sapDocument.number,
          grossAmount: 11_800,
          withholdings: [{ kind: 'DETRACTION', baseAmount: 11_800, amount: 1_416 }],
        }),
      ]);
      expect(miro[0]!.creditMemo ?? false).toBe(false);
      expect(postings.filter((posting) => posting.invoiceId === note.id)).toEqual([
        expect.objectContaining({
          creditMemo: true,
          adjusts: { document: posted.sapDocument.number, fiscalYear: posted.sapDocument.fiscalYear },
          grossAmount: 1_180,
          purchaseOrders: [order],
        }),
      ]);
      // The MIRO document is the group's own record: its staff read it, the supplier does not.
      expect((await detailOf(factura, await managerToken())).sapDocument).toEqual(posted.sapDocument);
      expect(await detailOf(factura, supplier)).not.toHaveProperty('sapDocument');
    },
    STEP_TIMEOUT,
  );

  it(
    '7. the supplier asks the assistant when the factura is paid, and reads its expected date and net to pay',
    async () => {
      // The assistant runs in the browser (web/src/chat): `answer` reads GET /invoices as the supplier's session does
      // (assistant-panel.tsx's lookup and count), here through the same API with the supplier's token.
      const supplier = await supplierToken();
      const context: AnswerContext = {
        level: 'SUPPLIER',
        scopes: [undefined],
        lookup: async (query) => (await call(routes.listInvoices, { token: supplier, query })).body,
        count: async (query) => (await call(routes.countInvoices, { token: supplier, query })).body,
      };
      const question = `¿cuándo me pagan la ${factura.id}?`;

      const reply = await answer(understand(question), context);

      const detail = await detailOf(factura, supplier);
      const expected = formatDate(detail.payment!.expectedPaymentDate!);
      expect(reply.text).toBe(
        `La fecha de pago estimada de la factura ${factura.id} para ${detail.clientName} es el ${expected}.`,
      );
      // The same net to pay as the sidebar's 'Pago' section (payment.netToPay, computed at intake on the document's
      // amount: the accepted credit note moves amountToPay, not this line).
      expect(reply.lists?.[0]?.items).toContain(`${netToPayLine(detail.payment!, detail.currency)}.`);
      expect(reply.lists?.[0]?.items).toContain('Detracción S/ 1,416.00 (12 %) · Neto a pagar S/ 10,384.00.');
    },
    STEP_TIMEOUT,
  );

  it(
    '5. an invoice of the seed’s NO HABIDO supplier: refused to the manager, approved by the administrator with a reason',
    async () => {
      const invoice = await registered({ supplier: NO_HABIDO_SUPPLIER, client: COMPANY.taxId });
      expect((await validated(invoice)).sunat).toMatchObject({ estadoRuc: 'ACTIVO', condDomiRuc: 'NO HABIDO' });
      const { order: risky, hes } = await orderWithHes(NO_HABIDO_SUPPLIER.taxId, COMPANY.taxId, 10_000);
      const manager = await managerToken();
      const completed = await call<InvoiceDetail>(routes.updateInvoice, {
        token: manager,
        path: pathOf(invoice),
        body: reviewBody(COMPANY.taxId, { purchaseOrders: [risky], serviceSheets: [hes] }),
      });
      expect(completed.status, JSON.stringify(completed.body)).toBe(200);
      // The list marks the row with SUNAT's answer.
      expect((await listed(manager, invoice, { client: COMPANY.taxId }))?.sunat).toMatchObject({
        condDomiRuc: 'NO HABIDO',
      });

      const refused = await call(routes.approveInvoice, { token: manager, path: pathOf(invoice) });

      expect(errorOf(refused)).toEqual({
        status: 409,
        code: 'ERROR_APPROVE_INVOICE_WITH_RUC_RISK',
        message:
          'No se puede aprobar: SUNAT informa que el proveedor no está ACTIVO y HABIDO (RUC ACTIVO, domicilio NO HABIDO). Solo un administrador puede aprobarlo, indicando el motivo.',
      });
      expect((await detailOf(invoice, manager)).status).toBe('COMPLETED');

      const reason = 'El proveedor acreditó su nuevo domicilio fiscal; SUNAT aún no lo actualiza.';
      const approved = await call<InvoiceDetail>(routes.approveInvoiceDespiteRucRisk, {
        token: await adminToken(),
        path: pathOf(invoice),
        body: { reason },
      });

      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      const history = (await detailOf(invoice, manager)).statusHistory;
      expect(history.at(-1)).toMatchObject({
        status: 'ACCEPTED',
        by: demoUser('ADMIN').username,
        additionalMessage: `Excepción por el estado del RUC (RUC ACTIVO, domicilio NO HABIDO): ${reason}`,
      });
      expect(approved.body.rucRiskOverride).toMatchObject({ reason, condDomiRuc: 'NO HABIDO' });
    },
    STEP_TIMEOUT,
  );

  it(
    '4. a factura left alone: past its last day the job presumes its conformity, and both sides are told',
    async () => {
      // Moving the shared stage's clock presumes every open clock on it at that instant, and the notices are dated
      // then: feeds of other files' users would keep notices from the future at their top (unread after 'marcar como
      // leídas'). So, as tests/integration/acquirer-conformity.test.ts does, the factura left alone is one intake
      // received yesterday (creditInvoiceFixture) from a supplier of this file at CLIENTS[2], whose feeds no other test
      // reads, and the clock moves the 8 days that end its last day, not 9 that would end today's documents' too.
      const supplier = {
        taxId: withCheckDigit(`207${randomInt(1_000_000, 9_999_999)}`),
        name: 'Proveedor Tácito S.A.C.',
      };
      const company = CLIENTS[2]!;
      const supplierEmail = `tacito.${supplier.taxId}@demo.pe`;
      const staffEmail = `staff.tacito.${supplier.taxId}@grupoandino.pe`;
      for (const [taxId, email] of [
        [supplier.taxId, supplierEmail],
        [company.taxId, staffEmail],
      ] as const) {
        await table().put({
          ...keys.recipient(taxId, `user-${email}`),
          userId: `user-${email}`,
          email,
          canReceiveEmails: true,
        });
      }
      const leftAlone = await creditInvoiceFixture({ client: company, supplier, receivedDaysAgo: 1 });
      const deadline = leftAlone.acquirerConformity!.deadline;
      expect((await detailOf(leftAlone)).acquirerConformity).toMatchObject({ state: 'OPEN', deadline, daysLeft: 7 });
      const presumed =
        `Venció el ${formatDate(deadline)} el plazo sin respuesta de ${company.name}: ` +
        `se presume su conformidad con la factura ${leftAlone.id} de ${supplier.name} (Ley 29623).`;

      try {
        // The last day ends (Código Civil art. 183) and the job runs at the start of the next.
        await moveStageClock(8);
        await runConformityClock();

        const detail = await detailOf(leftAlone);
        expect(detail.acquirerConformity).toMatchObject({ state: 'PRESUMED_CONFORMITY', answerableUntil: null });
        const entries = detail.statusHistory.filter((entry) => entry.title === 'Conformidad presunta (Ley 29623)');
        expect(entries).toEqual([expect.objectContaining({ status: 'PENDING', by: null })]);
        expect(entries[0]!.additionalMessage).toContain(`Venció el ${formatDate(deadline)} el plazo de 8 días`);
        const feedAbout = async (audience: 'SUPPLIER' | 'CLIENT', taxId: string) =>
          (await table().partition(keys.feed(audience, taxId)))
            .filter((item) => (item.reference as { invoiceId?: string } | undefined)?.invoiceId === leftAlone.id)
            .map((item) => String(item.message));
        const digestLogAbout = async (client: string) =>
          (await table().partition(`DIGEST#CLIENT#${client}`))
            .filter((item) => (item.reference as { invoiceId?: string } | undefined)?.invoiceId === leftAlone.id)
            .map((item) => String(item.message));
        // The supplier in its feed; the staff in their daily digest (ADR 0050), kept in the company's digest log.
        await until(
          async () => {
            const [supplierFeed, companyLog] = await Promise.all([
              feedAbout('SUPPLIER', supplier.taxId),
              digestLogAbout(company.taxId),
            ]);
            return supplierFeed.includes(presumed) && companyLog.includes(presumed);
          },
          { message: 'both sides told' },
        );
        expect(await feedAbout('CLIENT', company.taxId)).not.toContain(presumed);
        const told = await until(
          async () => {
            const to = await mailsSaying(presumed);
            return to.includes(supplierEmail) && to;
          },
          { message: 'the supplier told by e-mail' },
        );
        expect(told.filter((email) => email === supplierEmail)).toHaveLength(1);
        // The staff read it in the next morning's digest (ADR 0050), not in an e-mail now.
        expect(told).not.toContain(staffEmail);
        // The factura whose conformity the manager registered is not presumed.
        expect((await detailOf(factura)).acquirerConformity?.state).toBe('CONFORMITY');
      } finally {
        await putStageClockBack();
      }
    },
    STEP_TIMEOUT,
  );
});
