import { describe, expect, it } from 'vitest';
import { keys, routes, withCheckDigit, type ConformityKind, type InvoiceDetail } from '@portal/shared';
import { CLIENTS, EMPLOYEES, OFFICE_LOCATIONS, SUPPLIERS, buildWorld } from '../support/tenant.js';
import { call, idTokenOf, type CallResult } from '../support/api.js';
import { conformityFixture, reviewFixture, table, type ReviewFixture } from '../support/fixtures.js';
import { demoUser } from '../support/stage.js';
import { MINIMAL_PDF, uploadAs } from '../support/uploads.js';
import { until } from '../support/until.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

/**
 * The review of spec §4 and §5 on invoices of a supplier that exists only for these tests, at the
 * manager's first company: every test brings its own invoice, purchase order and documents.
 */
const COMPANY = CLIENTS[0]!;
const SUPPLIER = { taxId: withCheckDigit('2070000001'), name: 'Proveedor de Pruebas S.A.C.' };
const OTHER_SUPPLIER = { taxId: withCheckDigit('2070000002'), name: 'Otro Proveedor de Pruebas S.A.C.' };
const EMPLOYEE = EMPLOYEES[COMPANY.taxId]![0]!;
const OFFICE = OFFICE_LOCATIONS[COMPANY.taxId]![1]!;

const manager = () => idTokenOf(demoUser('MANAGER').username, demoUser('MANAGER').password);
const admin = () => idTokenOf(demoUser('ADMIN').username, demoUser('ADMIN').password);

function fixture(kind: ConformityKind | null, options: Partial<Parameters<typeof reviewFixture>[0]> = {}) {
  return reviewFixture({ client: COMPANY.taxId, clientName: COMPANY.name, supplier: SUPPLIER, kind, ...options });
}

const pathOf = ({ invoice }: Pick<ReviewFixture, 'invoice'>) => ({
  supplierId: invoice.supplierId,
  invoiceType: invoice.type,
  invoiceId: invoice.id,
});

/** The completion form for a fixture, as the manager would fill it; `change` alters one thing. */
function completion(f: ReviewFixture, change: Record<string, unknown> = {}) {
  const kind = f.document?.kind;
  return {
    operationType:
      kind === 'MATERIAL_DOCUMENT' ? 'GOODS' : kind === 'SERVICE_SHEET' ? 'SERVICES' : 'WITHOUT_PURCHASE_ORDER',
    responsibleId: EMPLOYEE.id,
    officeId: OFFICE.office,
    locationId: OFFICE.id,
    purchaseOrders: f.purchaseOrder ? [f.purchaseOrder] : [],
    serviceSheets: kind === 'SERVICE_SHEET' ? [f.document!.documentId] : [],
    materialDocs: kind === 'MATERIAL_DOCUMENT' ? [f.document!.documentId] : [],
    attachments: [],
    ...change,
  };
}

async function complete(f: ReviewFixture, change: Record<string, unknown> = {}, token?: string) {
  return call(routes.updateInvoice, {
    token: token ?? (await manager()),
    path: pathOf(f),
    body: completion(f, change),
  });
}

async function expectError(response: CallResult<any>, status: number, code: string) {
  expect({ status: response.status, code: response.body?.errors?.[0]?.code }).toEqual({ status, code });
  expect(response.body.txId).toBe(response.requestId);
  expect(response.body.message).toEqual(expect.any(String));
}

async function dashboard() {
  return (await call(routes.getDashboard, { token: await manager(), query: { client: COMPANY.taxId } })).body;
}

describe('GET invoice detail', () => {
  it('shows the manager the whole invoice with its history, office location and attachments', async () => {
    const f = await fixture('SERVICE_SHEET');
    const sustento = await uploadAs(await manager(), 'ATTACHMENT', MINIMAL_PDF, 'application/pdf', 'sustento.pdf');
    await complete(f, { attachments: [sustento] });
    const response = await call<InvoiceDetail>(routes.getInvoice, { token: await manager(), path: pathOf(f) });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: f.invoice.id,
      status: 'COMPLETED',
      responsible: EMPLOYEE,
      officeId: OFFICE.office,
      locationId: OFFICE.id,
      officeLocation: OFFICE,
      attachments: [sustento],
    });
    expect(response.body.statusHistory.map((entry) => entry.status)).toEqual(['PENDING', 'COMPLETED']);
  });

  it("answers 404 to another tenant's invoice, never its data", async () => {
    const world = buildWorld();
    const theirs = world.invoices.find(
      (invoice) => invoice.supplierId === SUPPLIERS[1]!.taxId && invoice.client === CLIENTS[2]!.taxId,
    )!;
    const path = { supplierId: theirs.supplierId, invoiceType: theirs.type, invoiceId: theirs.id };
    const supplier = demoUser('SUPPLIER');
    for (const token of [await idTokenOf(supplier.username, supplier.password), await manager()]) {
      const response = await call(routes.getInvoice, { token, path });
      await expectError(response, 404, 'ERROR_INVOICE_NOT_FOUND');
      expect(JSON.stringify(response.body)).not.toContain(theirs.supplierName);
    }
    expect((await call(routes.getInvoice, { token: await admin(), path })).status).toBe(200);
  });

  it('names the invoice-code format error of spec §8 for a malformed id', async () => {
    const response = await call(routes.getInvoice, {
      token: await manager(),
      path: { supplierId: SUPPLIER.taxId, invoiceType: 'FACTURA', invoiceId: 'F001_12' },
    });
    await expectError(response, 400, 'ERROR_INVOICE_ID_WITH_INVALID_FORMAT');
  });
});

describe('PUT: completing an invoice (spec §5)', () => {
  it('moves PENDING to COMPLETED, records who did it, claims the documents and moves the dashboard', async () => {
    const f = await fixture('SERVICE_SHEET');
    const before = await dashboard();
    const response = await complete(f);
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('COMPLETED');
    expect(response.body.statusHistory.at(-1)).toMatchObject({ status: 'COMPLETED', by: demoUser('MANAGER').username });
    const doc = await table().get(keys.conformity('SERVICE_SHEET', COMPANY.taxId, f.document!.documentId));
    expect(doc).toMatchObject({
      claimedBy: keys.invoice(SUPPLIER.taxId, 'FACTURA', f.invoice.id).pk,
      associatedInvoice: f.invoice.id,
    });
    const after = await dashboard();
    expect(after.pending - before.pending).toBe(-1);
    expect(after.completed - before.completed).toBe(1);
    expect(after.invUnassigned - before.invUnassigned).toBe(-1);
    expect(after.invService - before.invService).toBe(1);
  });

  it('completes goods with MIGO, and an invoice without purchase order with a PDF', async () => {
    const goods = await fixture('MATERIAL_DOCUMENT');
    expect((await complete(goods)).body.status).toBe('COMPLETED');
    const withoutOrder = await fixture(null);
    const token = await manager();
    const contract = await uploadAs(token, 'ATTACHMENT', MINIMAL_PDF, 'application/pdf', 'contrato.pdf');
    const photo = await uploadAs(token, 'ATTACHMENT', PNG, 'image/png', 'foto.png');
    const done = await complete(withoutOrder, { attachments: [contract, photo] });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'COMPLETED', operationType: 'WITHOUT_PURCHASE_ORDER' });
  });

  it('lets the manager change the documents of a completed invoice, releasing the ones dropped', async () => {
    const f = await fixture('SERVICE_SHEET');
    await complete(f);
    const replacement = await conformityFixture({
      kind: 'SERVICE_SHEET',
      client: COMPANY.taxId,
      supplierId: SUPPLIER.taxId,
      purchaseOrder: f.purchaseOrder!,
      currency: 'PEN',
      amount: f.invoice.amount - f.invoice.taxAmount,
    });
    const response = await complete(f, { serviceSheets: [replacement.documentId] });
    expect(response.status).toBe(200);
    expect(response.body.statusHistory.map((entry: { status: string }) => entry.status)).toEqual([
      'PENDING',
      'COMPLETED',
    ]);
    expect(await table().get(keys.conformity('SERVICE_SHEET', COMPANY.taxId, f.document!.documentId))).toMatchObject({
      claimedBy: null,
    });
    expect(await table().get(keys.conformity('SERVICE_SHEET', COMPANY.taxId, replacement.documentId))).toMatchObject({
      associatedInvoice: f.invoice.id,
    });
  });

  it('refuses updates while SUNAT has not confirmed validity', async () => {
    await expectError(
      await complete(await fixture('SERVICE_SHEET', { certStatus: 'PENDING' })),
      409,
      'ERROR_UPDATE_INVOICE_WITH_PENDING_STATUS',
    );
    await expectError(
      await complete(await fixture('SERVICE_SHEET', { certStatus: 'INVALID' })),
      409,
      'ERROR_UPDATE_INVOICE_WITH_INVALID_CERTIFICATION_STATUS',
    );
  });

  it('refuses HES with goods, MIGO with services, and both at once', async () => {
    const services = await fixture('SERVICE_SHEET');
    const goods = await fixture('MATERIAL_DOCUMENT');
    await expectError(
      await complete(services, { operationType: 'GOODS' }),
      400,
      'ERROR_ADD_HES_WITH_GOODS_OPERATION_TYPE',
    );
    await expectError(
      await complete(goods, { operationType: 'SERVICES' }),
      400,
      'ERROR_ADD_MIGO_WITH_SERVICE_OPERATION_TYPE',
    );
    await expectError(
      await complete(services, { operationType: 'GOOD_AND_SERVICE', materialDocs: [goods.document!.documentId] }),
      400,
      'ERROR_UPDATE_INVOICE_WITH_HES_AND_MIGO_AT_THE_SAME_TIME',
    );
  });

  it('asks for PDF supporting documents without a purchase order', async () => {
    const f = await fixture(null);
    await expectError(await complete(f), 400, 'ERROR_WITHOUT_PO_REQUIRES_ATTACHMENTS');
    await expectError(
      await complete(f, { attachments: ['foto.png', 'escaneo.jpg'] }),
      400,
      'ERROR_WITHOUT_PO_REQUIRES_ATTACHMENTS',
    );
  });

  it('asks for the purchase order and for the conformity documents', async () => {
    const f = await fixture('SERVICE_SHEET');
    await expectError(await complete(f, { purchaseOrders: [] }), 400, 'ERROR_UPDATE_INVOICE_WITHOUT_PURCHASE_ORDERS');
    await expectError(
      await complete(f, { serviceSheets: [] }),
      400,
      'ERROR_UPDATE_INVOICE_WITHOUT_CONFORMITY_DOCUMENTS',
    );
  });

  it('refuses unknown documents, purchase orders, responsibles and offices', async () => {
    const services = await fixture('SERVICE_SHEET');
    const goods = await fixture('MATERIAL_DOCUMENT');
    await expectError(await complete(services, { serviceSheets: ['H0000000'] }), 400, 'ERROR_HES_NOT_FOUND');
    await expectError(await complete(goods, { materialDocs: ['M0000000'] }), 400, 'ERROR_MIGO_NOT_FOUND');
    // An HES entered as a MIGO is not a MIGO.
    await expectError(
      await complete(services, {
        operationType: 'GOODS',
        serviceSheets: [],
        materialDocs: [services.document!.documentId],
      }),
      400,
      'ERROR_MIGO_NOT_FOUND',
    );
    await expectError(
      await complete(services, { purchaseOrders: ['PO0000000'] }),
      400,
      'ERROR_PURCHASE_ORDER_NOT_FOUND',
    );
    await expectError(await complete(services, { responsibleId: 'E9999' }), 400, 'ERROR_EMPLOYEE_NOT_FOUND');
    await expectError(await complete(services, { locationId: 'OF-999' }), 400, 'ERROR_OFFICE_LOCATION_NOT_FOUND');
    await expectError(
      await complete(services, { officeId: 'Oficina Inexistente' }),
      400,
      'ERROR_OFFICE_LOCATION_NOT_FOUND',
    );
  });

  it("refuses another supplier's documents and documents in another currency", async () => {
    const f = await fixture('SERVICE_SHEET');
    const foreign = await conformityFixture({
      kind: 'SERVICE_SHEET',
      client: COMPANY.taxId,
      supplierId: OTHER_SUPPLIER.taxId,
      purchaseOrder: f.purchaseOrder!,
      currency: 'PEN',
      amount: 100,
    });
    await expectError(
      await complete(f, { serviceSheets: [foreign.documentId] }),
      400,
      'ERROR_INVOICE_AND_CONFORMITY_DOCUMENTS_WITH_DIFFERENT_SUPPLIER',
    );
    const sameOrderInDollars = await conformityFixture({
      kind: 'SERVICE_SHEET',
      client: COMPANY.taxId,
      supplierId: SUPPLIER.taxId,
      purchaseOrder: f.purchaseOrder!,
      currency: 'USD',
      amount: f.invoice.amount - f.invoice.taxAmount,
    });
    await expectError(
      await complete(f, { serviceSheets: [sameOrderInDollars.documentId] }),
      400,
      'ERROR_INVOICE_AND_CONFORMITY_DOCUMENTS_WITH_DIFFERENT_CURRENCY',
    );
  });

  it('asks the documents to cover exactly the purchase orders entered', async () => {
    const f = await fixture('SERVICE_SHEET');
    const other = await fixture('SERVICE_SHEET');
    await expectError(
      await complete(f, { purchaseOrders: [other.purchaseOrder] }),
      400,
      'ERROR_CONFORMITY_DOCUMENTS_WITH_UNCOVERED_PURCHASE_ORDERS',
    );
    await expectError(
      await complete(f, { purchaseOrders: [f.purchaseOrder, other.purchaseOrder] }),
      400,
      'ERROR_PURCHASE_ORDERS_WITHOUT_CONFORMITY_DOCUMENTS',
    );
  });

  it('asks the documents to add up to the invoice amount without IGV', async () => {
    const f = await fixture('SERVICE_SHEET');
    const other = await fixture('SERVICE_SHEET');
    const response = await complete(f, {
      purchaseOrders: [f.purchaseOrder, other.purchaseOrder],
      serviceSheets: [f.document!.documentId, other.document!.documentId],
    });
    await expectError(response, 400, 'ERROR_INVOICE_AND_CONFORMITY_DOCUMENTS_WITH_DISTANT_AMOUNTS');
    const net = f.invoice.amount - f.invoice.taxAmount;
    expect(response.body.errors[0].parameters).toEqual({
      documentsAmount: (net + other.invoice.amount - other.invoice.taxAmount).toFixed(2),
      invoiceAmountWithoutTax: net.toFixed(2),
    });
  });

  it('never lets two invoices hold the same document, even when both ask at the same moment', async () => {
    const first = await fixture('SERVICE_SHEET', { net: 2500 });
    const twin = await fixture(null, { net: 2500 });
    const body = completion(first);
    const token = await manager();
    const [a, b] = await Promise.all([
      call(routes.updateInvoice, { token, path: pathOf(first), body }),
      call(routes.updateInvoice, { token, path: pathOf(twin), body }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    await expectError(a.status === 409 ? a : b, 409, 'ERROR_CONFORMITY_DOCUMENT_NOT_AVAILABLE');
    // The loser was left untouched: still PENDING, no history added.
    const loser = a.status === 409 ? first : twin;
    expect((await call<InvoiceDetail>(routes.getInvoice, { token, path: pathOf(loser) })).body).toMatchObject({
      status: 'PENDING',
      serviceSheets: [],
    });
  });

  it('refuses to edit an invoice that is no longer under review', async () => {
    const f = await fixture('SERVICE_SHEET');
    await complete(f);
    await call(routes.disapproveInvoice, { token: await manager(), path: pathOf(f), body: { reason: 'Duplicado' } });
    await expectError(await complete(f), 409, 'ERROR_UPDATE_INVOICE_NOT_EDITABLE');
  });
});

describe('approve (spec §4)', () => {
  it('moves COMPLETED to ACCEPTED with a MIRO outbox record handed to the queue', async () => {
    const f = await fixture('MATERIAL_DOCUMENT');
    await complete(f);
    const response = await call<InvoiceDetail>(routes.approveInvoice, { token: await admin(), path: pathOf(f) });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ACCEPTED', approved: true });
    expect(response.body.statusHistory.at(-1)).toMatchObject({ status: 'ACCEPTED', by: demoUser('ADMIN').username });
    const outbox = keys.miroOutbox(SUPPLIER.taxId, 'FACTURA', f.invoice.id);
    expect(await table().get(outbox)).toMatchObject({ idempotencyKey: outbox.pk, invoiceId: f.invoice.id });
    // Handed to the queue at once and handled: its message is acknowledged (its item gone) long before the relay would
    // send it (after the queue's visibility timeout, 3 minutes: it is committed as sent). The rest is miro.test.ts's.
    const ofThisApproval = async () =>
      (await table().outgoing('miroRequests')).filter(({ body }) => body.invoiceId === f.invoice.id);
    await until(async () => (await ofThisApproval()).length === 0, {
      message: "the approval's MIRO message acknowledged",
    });
    expect(await ofThisApproval()).toEqual([]);
  });

  it('refuses an invoice that is not COMPLETED', async () => {
    const f = await fixture('SERVICE_SHEET');
    await expectError(
      await call(routes.approveInvoice, { token: await manager(), path: pathOf(f) }),
      409,
      'ERROR_APPROVE_INVOICE_WITHOUT_COMPLETED_STATUS',
    );
  });

  it('gives fifty concurrent approvals of one invoice exactly one success and one outbox record', async () => {
    const f = await fixture('SERVICE_SHEET');
    await complete(f);
    const token = await manager();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => call(routes.approveInvoice, { token, path: pathOf(f) })),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expect(answer.status).toBe(409);
      expect(['ERROR_APPROVE_INVOICE_WITHOUT_COMPLETED_STATUS', 'ERROR_INVOICE_CHANGED_CONCURRENTLY']).toContain(
        answer.body.errors[0].code,
      );
    }
    const outboxes = await table().partition(keys.miroOutbox(SUPPLIER.taxId, 'FACTURA', f.invoice.id).pk);
    expect(outboxes).toHaveLength(1);
    const detail = await call<InvoiceDetail>(routes.getInvoice, { token, path: pathOf(f) });
    expect(detail.body.statusHistory.filter((entry) => entry.status === 'ACCEPTED')).toHaveLength(1);
  });
});

describe('disapprove (spec §4, §5)', () => {
  it('asks for the reason with the text of spec §5', async () => {
    const f = await fixture('SERVICE_SHEET');
    for (const body of [{}, { reason: '   ' }]) {
      const response = await call(routes.disapproveInvoice, { token: await manager(), path: pathOf(f), body });
      await expectError(response, 400, 'ERROR_DISAPPROVE_WITHOUT_REASON');
      expect(response.body.message).toBe('Por favor, ingrese el motivo de rechazo del comprobante.');
    }
  });

  it('rejects a COMPLETED invoice, releases its documents and lets the supplier retry when asked', async () => {
    const f = await fixture('SERVICE_SHEET');
    await complete(f);
    const before = await dashboard();
    const response = await call<InvoiceDetail>(routes.disapproveInvoice, {
      token: await manager(),
      path: pathOf(f),
      query: { noRejection: 'true' },
      body: { reason: 'El monto no coincide con la HES.' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'REJECTED',
      statusMessage: 'El monto no coincide con la HES.',
      disapprovedWithoutRejection: true,
    });
    expect(response.body.statusHistory.at(-1)).toMatchObject({
      status: 'REJECTED',
      additionalMessage: 'El monto no coincide con la HES.',
      by: demoUser('MANAGER').username,
    });
    expect(await table().get(keys.conformity('SERVICE_SHEET', COMPANY.taxId, f.document!.documentId))).toMatchObject({
      claimedBy: null,
      associatedInvoice: null,
    });
    const after = await dashboard();
    expect([after.completed - before.completed, after.rejected - before.rejected]).toEqual([-1, 1]);
    // The released document can complete another invoice.
    const next = await fixture(null, { net: f.invoice.amount - f.invoice.taxAmount });
    expect((await complete(next, completion(f))).status).toBe(200);
  });

  it('rejects a PENDING invoice definitively unless retry is allowed', async () => {
    const f = await fixture(null);
    const response = await call<InvoiceDetail>(routes.disapproveInvoice, {
      token: await manager(),
      path: pathOf(f),
      body: { reason: 'No corresponde a un servicio prestado.' },
    });
    expect(response.body).toMatchObject({ status: 'REJECTED', disapprovedWithoutRejection: false });
  });

  it('refuses invoices past review', async () => {
    const f = await fixture('SERVICE_SHEET');
    await complete(f);
    await call(routes.approveInvoice, { token: await manager(), path: pathOf(f) });
    await expectError(
      await call(routes.disapproveInvoice, { token: await manager(), path: pathOf(f), body: { reason: 'Tarde' } }),
      409,
      'ERROR_DISAPPROVE_INVOICE_WITHOUT_PENDING_OR_COMPLETED_STATUS',
    );
  });
});

describe('invoices past review stay as they are', () => {
  it.each([['ACCEPTED'], ['SCHEDULED'], ['PAID'], ['REJECTED']] as const)(
    'refuses completing, approving and rejecting a %s invoice',
    async (status) => {
      const f = await fixture('SERVICE_SHEET', { status });
      const token = await manager();
      await expectError(await complete(f), 409, 'ERROR_UPDATE_INVOICE_NOT_EDITABLE');
      await expectError(
        await call(routes.approveInvoice, { token, path: pathOf(f) }),
        409,
        'ERROR_APPROVE_INVOICE_WITHOUT_COMPLETED_STATUS',
      );
      await expectError(
        await call(routes.disapproveInvoice, { token, path: pathOf(f), body: { reason: 'Prueba' } }),
        409,
        'ERROR_DISAPPROVE_INVOICE_WITHOUT_PENDING_OR_COMPLETED_STATUS',
      );
      const unchanged = await call<InvoiceDetail>(routes.getInvoice, { token, path: pathOf(f) });
      expect(unchanged.body).toMatchObject({ status, statusHistory: f.invoice.statusHistory });
    },
  );
});
