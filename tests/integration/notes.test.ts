import { describe, expect, it } from 'vitest';
import {
  CLIENTS,
  NO_HABIDO_SUPPLIER,
  ORIGINAL_NOT_IN_PORTAL,
  SUPPLIERS,
  buildWorld,
  tenantFixture,
} from '../support/tenant.js';
import { keys, routes, type InvoiceDetail, type InvoiceSummary, type MiroRequestMessage } from '@portal/shared';
import { type SapPort } from '../../functions/src/adapters/sap.js';
import { makeInvoiceStore } from '../../functions/src/repositories/invoice-store.js';
import { approveInvoice } from '../../functions/src/use-cases/review/approve-invoice.js';
import { makeMiroOutbox } from '../../functions/src/repositories/miro-outbox.js';
import { makeMiroRequestsWorker } from '../../functions/src/workers/miro-requests-worker.js';
import { call } from '../support/api.js';
import { stage } from '../support/stage.js';
import {
  NOTES_COMPANY,
  adminToken,
  completedNote,
  detailOf,
  freshSupplier,
  orderWithHes,
  pathOf,
  postedOriginal,
  postedRecord,
  referenceTo,
  registered,
  reviewBody,
  submit,
  validated,
} from '../support/notes.js';
import { randomCorrelative } from '../support/invoices.js';
import { uploadAs } from '../support/uploads.js';
import { until } from '../support/until.js';
import { adminCaller, inProcessDb, inProcessReviewDeps, realSap, sqsRecordOf } from '../support/in-process.js';
import { stageSap } from '../support/sap.js';

/*
 * Notes tied to their original (docs/ap-notes-and-risk.md): what the portal keeps of a nota de crédito or
 * de débito, the refusals, the links both ways, the original's amount to pay under every ordering, the review of a
 * note as an adjustment and its posting to SAP exactly once. Every test has suppliers of its own at the company no
 * demo manager reviews.
 */

type Posting = {
  document: string;
  fiscalYear: string;
  invoiceId: string;
  creditMemo?: boolean;
  adjusts?: { document: string; fiscalYear: string } | null;
};
const postingsOf = async (supplierId: string) =>
  (await stageSap<{ postings: Posting[] }>(`/__control/postings?supplierId=${supplierId}`)).postings;

const amountToPay = async (invoice: InvoiceDetail) => (await detailOf(invoice)).amountToPay;

const ADMIN_CALLER = adminCaller({ sub: 'notes-tests', email: 'admin@grupoandino.pe', lastName: 'Notas' });

/** The MIRO worker of functions/src/workers/miro-requests.ts, in this process, against the stage. */
function inProcessWorker(
  sap: Pick<SapPort, 'postSupplierInvoice' | 'findSupplierInvoice'>,
  outbox = makeMiroOutbox(inProcessDb(), stage().tableName),
) {
  return makeMiroRequestsWorker({
    outbox,
    store: makeInvoiceStore(inProcessDb(), stage().tableName),
    sap,
    notifications: { send: async () => undefined },
    clock: () => new Date(),
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    leaseMs: 1_500,
  });
}

const miroMessageOf = (invoice: { supplierId: string; type: string; id: string }): MiroRequestMessage => ({
  supplierId: invoice.supplierId,
  invoiceType: invoice.type as MiroRequestMessage['invoiceType'],
  invoiceId: invoice.id,
  outboxKey: keys.miroOutbox(invoice.supplierId, invoice.type, invoice.id).pk,
});

/**
 * Approves the note in this process (its MIRO message kept here), then a worker posts it and dies before it writes
 * anything back: SAP holds the credit memo, the portal does not know it. Answers SAP's document number.
 */
async function crashAfterPosting(note: InvoiceDetail): Promise<string> {
  const kept: MiroRequestMessage[] = [];
  const review = inProcessReviewDeps(kept, () => new Date());

  await approveInvoice(review, ADMIN_CALLER, pathOf(note));
  expect(kept).toHaveLength(1);
  const real = realSap();
  let document = '';
  const crashing = {
    async postSupplierInvoice(posting: Parameters<SapPort['postSupplierInvoice']>[0]) {
      document = (await real.postSupplierInvoice(posting)).number;
      throw new Error('worker killed right after the SAP call');
    },
    findSupplierInvoice: (reference: Parameters<SapPort['findSupplierInvoice']>[0]) =>
      real.findSupplierInvoice(reference),
  };
  const outbox = makeMiroOutbox(inProcessDb(), stage().tableName);
  const dead = {
    ...outbox,
    retryLater: async (): Promise<boolean> => {
      throw new Error('worker killed before it could write anything back');
    },
  };
  await inProcessWorker(crashing, dead)({ Records: [sqsRecordOf(kept[0]!)] });
  expect(document).not.toBe('');
  return document;
}

describe('a note keeps its original and its SUNAT reason', () => {
  it('reads them from the XML: catálogo 09 code, label and the issuer words, linked both ways', async () => {
    const supplier = freshSupplier();
    const original = await registered({ supplier, prefixId: 'F001' });
    // SUNAT's own layout (tests/fixtures/ubl), naming this supplier, this company and this original.
    const xml = tenantFixture('ubl/nota-credito-ubl21.xml')
      .replaceAll(SUPPLIERS[0]!.taxId, supplier.taxId)
      .replaceAll(CLIENTS[0]!.taxId, NOTES_COMPANY.taxId)
      .replaceAll('F001-00000458', `F001-${original.numericId.padStart(8, '0')}`)
      .replace('FC01-00000012', `FC01-${randomCorrelative()}`);
    const token = await adminToken();
    const url = await uploadAs(token, 'INVOICE_XML', Buffer.from(xml), 'application/xml', 'nota.xml');
    const created = await call<InvoiceDetail>(routes.createInvoiceFromXml, { token, body: { url } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    const note = await detailOf(created.body);
    expect(note).toMatchObject({
      type: 'NOTA_DE_CREDITO',
      billingReference: { type: 'FACTURA', prefixId: 'F001', numericId: original.numericId, id: original.id },
      noteReason: {
        code: '07',
        label: 'Devolución por ítem',
        description: 'DEVOLUCIÓN POR ÍTEM: SERVICIO NO PRESTADO EN SU TOTALIDAD',
      },
      originalInPortal: true,
      original: { supplierId: supplier.taxId, type: 'FACTURA', id: original.id, amount: 11_800 },
    });
    const linked = await detailOf(original);
    expect(linked.linkedNotes).toEqual([
      expect.objectContaining({ type: 'NOTA_DE_CREDITO', id: note.id, amount: 1_180, status: 'PENDING' }),
    ]);
    // A note under review changes nothing of what is paid.
    expect(linked.amountToPay).toBe(11_800);
  });

  it('takes them from the form without XML, the reason of catálogo 10 for a debit note', async () => {
    const supplier = freshSupplier();
    const original = await registered({ supplier });
    const note = await registered({
      supplier,
      type: 'NOTA_DE_DEBITO',
      billingReference: referenceTo(original),
      noteReasonCode: '01',
      noteReasonDescription: 'Intereses por pago fuera de plazo',
      amount: 59,
      taxAmount: 9,
    });
    expect(note).toMatchObject({
      billingReference: { id: original.id, type: 'FACTURA' },
      noteReason: { code: '01', label: 'Intereses por mora', description: 'Intereses por pago fuera de plazo' },
      originalInPortal: true,
    });
    expect((await detailOf(original)).linkedNotes?.map((linked) => linked.id)).toEqual([note.id]);
  });
});

describe('notes the portal refuses, each with its own code, storing nothing', () => {
  async function refused(form: Parameters<typeof submit>[0], status = 400) {
    const numericId = randomCorrelative();
    const response = await submit({ ...form, numericId });
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    const type = form.type ?? 'FACTURA';
    const prefix = form.prefixId ?? (type === 'NOTA_DE_CREDITO' ? 'FC07' : type === 'NOTA_DE_DEBITO' ? 'FD07' : 'F007');
    const stored = await call(routes.getInvoice, {
      token: await adminToken(),
      path: { supplierId: form.supplier.taxId, invoiceType: type, invoiceId: `${prefix}-${numericId}` },
    });
    expect(stored.status).toBe(404);
    const body = response.body as unknown as { errors: { code: string }[]; message: string };
    return { code: body.errors[0]!.code, message: body.message };
  }

  it('refuses a note whose original belongs to another company', async () => {
    const supplier = freshSupplier();
    const original = await registered({ supplier });
    expect(
      await refused({
        supplier,
        type: 'NOTA_DE_CREDITO',
        client: CLIENTS[1]!.taxId,
        billingReference: referenceTo(original),
        noteReasonCode: '01',
      }),
    ).toEqual({
      code: 'ERROR_NOTE_ORIGINAL_OF_ANOTHER_COMPANY',
      message: `El comprobante ${original.id} que modifica la nota fue emitido a otra sociedad (${NOTES_COMPANY.name}): una nota solo modifica comprobantes del mismo adquirente.`,
    });
  });

  it('refuses a note naming a document the company holds only from another supplier', async () => {
    const theirs = await registered({ supplier: freshSupplier('Otro Proveedor S.A.C.') });
    expect(
      await refused({
        supplier: freshSupplier(),
        type: 'NOTA_DE_CREDITO',
        billingReference: referenceTo(theirs),
        noteReasonCode: '06',
      }),
    ).toEqual({
      code: 'ERROR_NOTE_ORIGINAL_OF_ANOTHER_SUPPLIER',
      message: `El comprobante ${theirs.id} registrado en el portal para esta sociedad es de otro proveedor: una nota solo modifica comprobantes de su mismo emisor.`,
    });
  });

  it('refuses a note without its original or reason, a reason of the other catálogo and an original that is no factura or boleta', async () => {
    const supplier = freshSupplier();
    const original = await registered({ supplier });
    const note = { supplier, type: 'NOTA_DE_DEBITO' as const };
    expect((await refused({ ...note, noteReasonCode: '01' })).code).toBe('ERROR_NOTE_WITHOUT_BILLING_REFERENCE');
    expect(await refused({ ...note, billingReference: referenceTo(original) })).toEqual({
      code: 'ERROR_NOTE_WITHOUT_REASON',
      message: 'Una nota de crédito o débito debe indicar su motivo (catálogo 10 de SUNAT).',
    });
    // 13 is catálogo 09's (credit notes), not a debit note's.
    expect(await refused({ ...note, billingReference: referenceTo(original), noteReasonCode: '13' })).toEqual({
      code: 'ERROR_NOTE_REASON_NOT_IN_CATALOGUE',
      message: 'El motivo «13» no está en el catálogo 10 de SUNAT para una nota de débito.',
    });
    expect(
      (
        await refused({
          ...note,
          billingReference: { type: 'FACTURA', prefixId: 'B001', numericId: '5' },
          noteReasonCode: '01',
        })
      ).code,
    ).toBe('ERROR_NOTE_BILLING_REFERENCE_INVALID');
    expect(
      await refused({ supplier, type: 'FACTURA', billingReference: referenceTo(original), noteReasonCode: '01' }),
    ).toMatchObject({ code: 'ERROR_INVALID_PARAMETER' });
  });

  it('refuses a note in another currency than its original', async () => {
    const supplier = freshSupplier();
    const original = await registered({ supplier, currency: 'USD' });
    expect(
      await refused({
        supplier,
        type: 'NOTA_DE_CREDITO',
        billingReference: referenceTo(original),
        noteReasonCode: '04',
      }),
    ).toEqual({
      code: 'ERROR_NOTE_CURRENCY_DIFFERS_FROM_ORIGINAL',
      message: `La moneda de la nota (PEN) no es la del comprobante que modifica, ${original.id} (USD).`,
    });
  });
});

describe('a note whose original is not in the portal', () => {
  it('is accepted and marked, and linked when its original arrives, which starts with the accepted note deducted', async () => {
    const supplier = freshSupplier();
    const token = await adminToken();
    const numericId = randomCorrelative();
    const reference = { type: 'FACTURA' as const, prefixId: 'F008', numericId };
    const note = await registered({
      supplier,
      type: 'NOTA_DE_CREDITO',
      billingReference: reference,
      noteReasonCode: '04',
      amount: 1_180,
      taxAmount: 180,
    });
    expect(note).toMatchObject({ originalInPortal: false, billingReference: { id: `F008-${numericId}` } });
    expect((await detailOf(note)).original).toBeNull();
    const listed = await call(routes.listInvoices, {
      token,
      query: { client: NOTES_COMPANY.taxId, issuer: supplier.taxId },
    });
    expect(listed.body.items).toEqual([expect.objectContaining({ id: note.id, originalInPortal: false })]);

    // The manager gives it the order it adjusts (no original to take it from), without HES or amount match.
    await validated(note);
    const { order } = await orderWithHes(supplier.taxId, NOTES_COMPANY.taxId, 10_000);
    const completed = await call(routes.updateInvoice, {
      token,
      path: pathOf(note),
      body: reviewBody(NOTES_COMPANY.taxId, { purchaseOrders: [order] }),
    });
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect(completed.body).toMatchObject({ status: 'COMPLETED', purchaseOrders: [order], serviceSheets: [] });
    expect((await call(routes.approveInvoice, { token, path: pathOf(note) })).status).toBe(200);

    const original = await registered({ supplier, prefixId: 'F008', numericId, amount: 11_800, taxAmount: 1_800 });
    expect(original).toMatchObject({ amountToPay: 10_620, noteAdjustments: { credited: 1_180, debited: 0 } });
    expect(await detailOf(note)).toMatchObject({ originalInPortal: true, original: { id: original.id } });
    expect((await detailOf(original)).linkedNotes?.map((linked) => linked.id)).toEqual([note.id]);
  });

  it('is one of the seeded demo documents, marked for the manager', () => {
    const world = buildWorld();
    const orphan = world.invoices.find((invoice) => invoice.originalInPortal === false)!;
    expect(orphan).toMatchObject({ supplierId: SUPPLIERS[0]!.taxId, billingReference: ORIGINAL_NOT_IN_PORTAL });
    expect(world.invoices.some((invoice) => invoice.id === ORIGINAL_NOT_IN_PORTAL.id)).toBe(false);
    expect(world.invoices.filter((invoice) => invoice.supplierId === NO_HABIDO_SUPPLIER.taxId)).not.toHaveLength(0);
  });
});

describe("a note is reviewed as an adjustment of its original (spec §5's rules that apply to notes)", () => {
  it('takes the original’s orders, carries no HES/MIGO, and waits for the original to be reviewed and approved', async () => {
    const supplier = freshSupplier();
    const token = await adminToken();
    const original = await registered({ supplier });
    const note = await registered({
      supplier,
      type: 'NOTA_DE_CREDITO',
      billingReference: referenceTo(original),
      noteReasonCode: '09',
      amount: 1_180,
      taxAmount: 180,
    });
    await validated(original);
    await validated(note);
    const { order, hes } = await orderWithHes(supplier.taxId, NOTES_COMPANY.taxId, 10_000);
    const update = (body: ReturnType<typeof reviewBody>, invoice = note) =>
      call(routes.updateInvoice, { token, path: pathOf(invoice), body });

    const early = await update(reviewBody(NOTES_COMPANY.taxId, { purchaseOrders: [order] }));
    expect({ status: early.status, code: early.body.errors[0].code, message: early.body.message }).toEqual({
      status: 400,
      code: 'ERROR_NOTE_ORIGINAL_NOT_REVIEWED',
      message: `Complete primero los datos del comprobante original ${original.id}: la nota toma su tipo de operación y sus órdenes de compra.`,
    });
    expect(
      (await update(reviewBody(NOTES_COMPANY.taxId, { purchaseOrders: [order], serviceSheets: [hes] }), original))
        .status,
    ).toBe(200);

    const withHes = await update(reviewBody(NOTES_COMPANY.taxId, { purchaseOrders: [order], serviceSheets: [hes] }));
    expect(withHes.body.errors[0].code).toBe('ERROR_NOTE_WITH_CONFORMITY_DOCUMENTS');
    const otherOrders = await update(reviewBody(NOTES_COMPANY.taxId, { purchaseOrders: ['4599999999'] }));
    expect({ code: otherOrders.body.errors[0].code, message: otherOrders.body.message }).toEqual({
      code: 'ERROR_NOTE_REVIEW_NOT_ORIGINAL',
      message: `Una nota se revisa como ajuste de su comprobante original ${original.id}: lleva su tipo de operación y sus órdenes de compra (${order}).`,
    });
    // The note's S/ 1,000.00 before IGV against an HES of S/ 10,000.00: no amount match for a note.
    const completed = await update(reviewBody(NOTES_COMPANY.taxId, { purchaseOrders: [order] }));
    expect(completed.body).toMatchObject({ status: 'COMPLETED', purchaseOrders: [order], serviceSheets: [] });

    const early2 = await call(routes.approveInvoice, { token, path: pathOf(note) });
    expect({ status: early2.status, code: early2.body.errors[0].code }).toEqual({
      status: 409,
      code: 'ERROR_NOTE_ORIGINAL_NOT_APPROVED',
    });
  });

  it('refuses a credit note that takes more than is left to pay of its original', async () => {
    const supplier = freshSupplier();
    const { original } = await postedOriginal(supplier);
    const first = await completedNote(original, { type: 'NOTA_DE_CREDITO', amount: 10_620, taxAmount: 1_620 });
    expect((await call(routes.approveInvoice, { token: await adminToken(), path: pathOf(first) })).status).toBe(200);
    const second = await completedNote(original, { type: 'NOTA_DE_CREDITO', amount: 1_298, taxAmount: 198 });
    const refused = await call(routes.approveInvoice, { token: await adminToken(), path: pathOf(second) });
    expect({ status: refused.status, message: refused.body.message }).toEqual({
      status: 409,
      message: `La nota de crédito (S/ 1,298.00) supera el monto a pagar que queda del comprobante original ${original.id} (S/ 1,180.00).`,
    });
    expect(refused.body.errors[0].code).toBe('ERROR_CREDIT_NOTE_EXCEEDS_AMOUNT_TO_PAY');
  });
});

describe("the original's amount to pay follows its accepted notes", () => {
  it('after the notes: unchanged while they are reviewed, moved when each is approved, in the list too', async () => {
    const supplier = freshSupplier();
    const token = await adminToken();
    const { original } = await postedOriginal(supplier);
    const credit = await completedNote(original, { type: 'NOTA_DE_CREDITO', amount: 1_180, taxAmount: 180 });
    const debit = await completedNote(original, { type: 'NOTA_DE_DEBITO', amount: 59, taxAmount: 9 });
    expect(await amountToPay(original)).toBe(11_800);

    await call(routes.approveInvoice, { token, path: pathOf(credit) });
    expect(await amountToPay(original)).toBe(10_620);
    await call(routes.approveInvoice, { token, path: pathOf(debit) });
    const after = await detailOf(original);
    expect(after).toMatchObject({
      amount: 11_800,
      amountToPay: 10_679,
      noteAdjustments: { credited: 1_180, debited: 59 },
    });

    const row = (
      await call(routes.listInvoices, { token, query: { client: NOTES_COMPANY.taxId, issuer: supplier.taxId } })
    ).body.items.find((item: InvoiceSummary) => item.id === original.id);
    expect(row).toMatchObject({ amount: 11_800, amountToPay: 10_679 });
  });

  it('counts both of two credit notes approved at the same moment', async () => {
    const supplier = freshSupplier();
    const token = await adminToken();
    const { original } = await postedOriginal(supplier);
    const notes = [
      await completedNote(original, { type: 'NOTA_DE_CREDITO', amount: 1_180, taxAmount: 180 }),
      await completedNote(original, { type: 'NOTA_DE_CREDITO', amount: 2_360, taxAmount: 360 }),
    ];
    const answers = await Promise.all(notes.map((note) => call(routes.approveInvoice, { token, path: pathOf(note) })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await amountToPay(original)).toBe(8_260);
  });

  it('after a rejection the replacement counts, and a replacement naming another original leaves the first', async () => {
    const supplier = freshSupplier();
    const token = await adminToken();
    const { original } = await postedOriginal(supplier);
    const other = await registered({ supplier });
    const note = await completedNote(original, { type: 'NOTA_DE_CREDITO', amount: 1_180, taxAmount: 180 });
    const rejected = await call(routes.disapproveInvoice, {
      token,
      path: pathOf(note),
      query: { noRejection: 'true' },
      body: { reason: 'El monto no es el acordado.' },
    });
    expect(rejected.status).toBe(200);
    expect(await amountToPay(original)).toBe(11_800);

    // Sent again with the agreed amount: it replaces the rejected one, and counts once approved.
    const replacement = await registered({
      supplier,
      type: 'NOTA_DE_CREDITO',
      prefixId: note.prefixId,
      numericId: note.numericId,
      billingReference: referenceTo(original),
      noteReasonCode: '09',
      amount: 590,
      taxAmount: 90,
    });
    await validated(replacement);
    expect(
      (
        await call(routes.updateInvoice, {
          token,
          path: pathOf(replacement),
          body: reviewBody(NOTES_COMPANY.taxId, { purchaseOrders: [...original.purchaseOrders] }),
        })
      ).status,
    ).toBe(200);
    expect((await call(routes.approveInvoice, { token, path: pathOf(replacement) })).status).toBe(200);
    expect(await amountToPay(original)).toBe(11_210);
    expect((await detailOf(original)).linkedNotes).toEqual([
      expect.objectContaining({ id: note.id, amount: 590, status: 'ACCEPTED' }),
    ]);

    // A note rejected and sent again naming another document moves to that one's notes.
    const moving = await registered({
      supplier,
      type: 'NOTA_DE_DEBITO',
      billingReference: referenceTo(original),
      noteReasonCode: '02',
      amount: 118,
      taxAmount: 18,
    });
    await validated(moving);
    await call(routes.disapproveInvoice, {
      token,
      path: pathOf(moving),
      query: { noRejection: 'true' },
      body: { reason: 'Modifica otra factura.' },
    });
    await registered({
      supplier,
      type: 'NOTA_DE_DEBITO',
      prefixId: moving.prefixId,
      numericId: moving.numericId,
      billingReference: referenceTo(other),
      noteReasonCode: '02',
      amount: 118,
      taxAmount: 18,
    });
    expect((await detailOf(original)).linkedNotes?.map((linked) => linked.id)).toEqual([note.id]);
    expect((await detailOf(other)).linkedNotes?.map((linked) => linked.id)).toEqual([moving.id]);
  });
});

describe('a credit note reaches SAP as a credit memo, exactly once', () => {
  it('posts it against the original’s document and orders; a redelivery posts nothing more', async () => {
    const supplier = freshSupplier();
    const { original, order } = await postedOriginal(supplier);
    const note = await completedNote(original, { type: 'NOTA_DE_CREDITO', amount: 1_180, taxAmount: 180 });
    expect((await call(routes.approveInvoice, { token: await adminToken(), path: pathOf(note) })).status).toBe(200);
    const record = await postedRecord(note);

    const postings = await postingsOf(supplier.taxId);
    const memo = postings.filter((posting) => posting.invoiceId === note.id);
    expect(memo).toEqual([
      expect.objectContaining({
        creditMemo: true,
        adjusts: { document: original.sapDocument!.number, fiscalYear: original.sapDocument!.fiscalYear },
        purchaseOrders: [order],
        grossAmount: 1_180,
      }),
    ]);
    expect(await detailOf(note)).toMatchObject({ sapDocument: { number: memo[0]!.document } });
    expect(record.sapDocument).toEqual({ number: memo[0]!.document, fiscalYear: memo[0]!.fiscalYear });

    // SQS delivers the message again: the record says POSTED, nothing reaches SAP.
    await inProcessWorker(realSap())({ Records: [sqsRecordOf(miroMessageOf(note))] });
    expect((await postingsOf(supplier.taxId)).filter((posting) => posting.invoiceId === note.id)).toHaveLength(1);
  });

  it('refuses, at SAP, a credit memo whose original SAP does not hold: the posting fails visibly', async () => {
    const supplier = freshSupplier();
    const token = await adminToken();
    const note = await registered({
      supplier,
      type: 'NOTA_DE_CREDITO',
      billingReference: { type: 'FACTURA', prefixId: 'F009', numericId: randomCorrelative() },
      noteReasonCode: '01',
      amount: 1_180,
      taxAmount: 180,
    });
    await validated(note);
    const { order } = await orderWithHes(supplier.taxId, NOTES_COMPANY.taxId, 10_000);
    await call(routes.updateInvoice, {
      token,
      path: pathOf(note),
      body: reviewBody(NOTES_COMPANY.taxId, { purchaseOrders: [order] }),
    });
    expect((await call(routes.approveInvoice, { token, path: pathOf(note) })).status).toBe(200);
    const retrying = await until(
      async () => {
        const detail = await detailOf(note);
        return detail.sapPosting?.reason ? detail : null;
      },
      { message: 'a failed attempt' },
    );
    expect(retrying.sapPosting!.reason).toContain(
      `SAP no registra el comprobante original ${note.billingReference!.id}`,
    );
    expect((await postingsOf(supplier.taxId)).filter((posting) => posting.invoiceId === note.id)).toEqual([]);
  });

  it('is found again after a crash: the read-back tells the credit memo from a factura of the same number', async () => {
    // A factura and a credit note may share a series-number (SUNAT numbers each document type apart).
    const supplier = freshSupplier();
    const shared = randomCorrelative();
    const { original } = await postedOriginal(supplier, { prefixId: 'F010' });
    const twin = await postedOriginal(supplier, { prefixId: 'F011', numericId: shared });
    const note = await completedNote(original, {
      type: 'NOTA_DE_CREDITO',
      prefixId: 'F011',
      numericId: shared,
      amount: 1_180,
      taxAmount: 180,
    });
    // SAP posts the credit memo and the worker dies: the stage's sweeper reads SAP back once the lease ends.
    const lost = await crashAfterPosting(note);
    const record = await postedRecord(note);
    const memo = (await postingsOf(supplier.taxId)).filter(
      (posting) => posting.invoiceId === note.id && posting.creditMemo,
    );
    expect(memo).toHaveLength(1);
    expect(memo[0]!.document).toBe(lost);
    expect(record.sapDocument.number).toBe(lost);
    expect(record.sapDocument.number).not.toBe(twin.original.sapDocument!.number);
    expect((await detailOf(note)).sapDocument?.number).toBe(lost);
  });
});
