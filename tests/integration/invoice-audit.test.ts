import { describe, expect, it } from 'vitest';
import { routes, withCheckDigit, type InvoiceAuditEvent, type InvoiceDetail } from '@portal/shared';
import { CLIENTS, EMPLOYEES, OFFICE_LOCATIONS, tenantFixture } from '../support/tenant.js';
import { makeInvoiceStore } from '../../functions/src/repositories/invoice-store.js';
import { callerStamp } from '../../functions/src/use-cases/audit-stamp.js';
import type { Caller } from '../../functions/src/http/caller.js';
import { call, idTokenOf } from '../support/api.js';
import { reviewFixture, type ReviewFixture, stageDocumentClient } from '../support/fixtures.js';
import { demoUser, stage } from '../support/stage.js';
import { uploadAs } from '../support/uploads.js';
import { registerWithSap } from '../support/sap.js';
import { randomCorrelative } from '../support/invoices.js';
import { readUntil } from '../support/until.js';

/**
 * The audit trail: every change to an invoice leaves one record, written in the change's own transaction,
 * with the before and after of each field it touched, who made it (name, role, how they signed in), when, and the
 * call it came from (the txId its caller was answered with).
 */
const COMPANY = CLIENTS[0]!;
const SUPPLIER = { taxId: withCheckDigit('2070000051'), name: 'Proveedor del Historial S.A.C.' };
const EMPLOYEE = EMPLOYEES[COMPANY.taxId]![0]!;
const OTHER_EMPLOYEE = EMPLOYEES[COMPANY.taxId]![1]!;
const OFFICE = OFFICE_LOCATIONS[COMPANY.taxId]![1]!;

const tokenOf = (role: 'SUPPLIER' | 'MANAGER' | 'ADMIN') => idTokenOf(demoUser(role).username, demoUser(role).password);

const pathOf = ({ invoice }: Pick<ReviewFixture, 'invoice'>) => ({
  supplierId: invoice.supplierId,
  invoiceType: invoice.type,
  invoiceId: invoice.id,
});

function completion(f: ReviewFixture, responsibleId = EMPLOYEE.id) {
  return {
    operationType: 'SERVICES',
    responsibleId,
    officeId: OFFICE.office,
    locationId: OFFICE.id,
    purchaseOrders: [f.purchaseOrder!],
    serviceSheets: [f.document!.documentId],
    materialDocs: [],
    attachments: [],
  };
}

async function trailOf(
  invoice: { supplierId: string; invoiceType: string; invoiceId: string },
  token?: string,
): Promise<InvoiceAuditEvent[]> {
  const events: InvoiceAuditEvent[] = [];
  let cursor: string | undefined;
  do {
    const response = await call<{ items: InvoiceAuditEvent[]; nextCursor: string | null }>(routes.listInvoiceHistory, {
      token: token ?? (await tokenOf('ADMIN')),
      path: invoice,
      query: { limit: '5', ...(cursor ? { cursor } : {}) },
    });
    expect(response.status).toBe(200);
    events.push(...response.body.items);
    cursor = response.body.nextCursor ?? undefined;
  } while (cursor);
  return events;
}

/** The trail once `done` holds (a worker's change arrives after the call that queued it), or as it is after 60 s. */
async function trailUntil(
  invoice: { supplierId: string; invoiceType: string; invoiceId: string },
  done: (events: InvoiceAuditEvent[]) => boolean,
): Promise<InvoiceAuditEvent[]> {
  return readUntil(() => trailOf(invoice), done, { timeout: 60_000 });
}

const changeOf = (event: InvoiceAuditEvent | undefined, field: string) =>
  event?.changes.find((change) => change.field === field);

describe("an invoice's audit trail", () => {
  it('records the review step by step: who, how they signed in, from which call, and each field before and after', async () => {
    const f = await reviewFixture({
      client: COMPANY.taxId,
      clientName: COMPANY.name,
      supplier: SUPPLIER,
      kind: 'SERVICE_SHEET',
    });
    await registerWithSap(stage().endpoints.sap, [f]);
    const manager = demoUser('MANAGER');
    expect(manager.signIn).toBe('corporate');
    const token = await tokenOf('MANAGER');

    const completed = await call<InvoiceDetail>(routes.updateInvoice, { token, path: pathOf(f), body: completion(f) });
    expect(completed.status).toBe(200);
    const approved = await call<InvoiceDetail>(routes.approveInvoice, { token, path: pathOf(f) });
    expect(approved.status).toBe(200);

    // The MIRO worker posts it afterwards: its change is the trail's too, by the process, in the approval's trace.
    const trail = await trailUntil(pathOf(f), (events) => events.some((event) => event.action === 'SAP_POSTED'));
    expect(trail.map((event) => event.action)).toEqual(['COMPLETED', 'APPROVED', 'SAP_POSTED']);
    const [completion_, approval, posting] = trail;

    expect(completion_).toMatchObject({
      // The demo manager signs in with the corporate SSO; the demo supplier with the portal's password.
      actor: { email: manager.username, role: 'MANAGER', signIn: 'CORPORATE' },
      txId: completed.requestId,
    });
    expect(completion_!.actor.name).not.toBe('');
    expect(changeOf(completion_, 'status')).toEqual({ field: 'status', before: 'PENDING', after: 'COMPLETED' });
    expect(changeOf(completion_, 'responsible')).toEqual({
      field: 'responsible',
      before: null,
      after: EMPLOYEE.fullName,
    });
    expect(changeOf(completion_, 'serviceSheets')).toEqual({
      field: 'serviceSheets',
      before: [],
      after: [f.document!.documentId],
    });
    // Only what changed: the amount did not.
    expect(changeOf(completion_, 'amount')).toBeUndefined();

    expect(approval).toMatchObject({ action: 'APPROVED', txId: approved.requestId, actor: { role: 'MANAGER' } });
    expect(changeOf(approval, 'status')).toEqual({ field: 'status', before: 'COMPLETED', after: 'ACCEPTED' });

    expect(posting).toMatchObject({ actor: { role: null, signIn: 'SYSTEM' } });
    expect(changeOf(posting, 'sapDocument')).toMatchObject({
      before: null,
      after: expect.stringMatching(/^\d{10}\/\d{4}$/),
    });
    expect(posting!.txId).toMatch(/^[0-9a-f]{32}$/);

    // Oldest first, each once, whatever the page size.
    expect(new Set(trail.map((event) => event.id)).size).toBe(trail.length);
    expect([...trail].sort((a, b) => a.occurredAt.localeCompare(b.occurredAt))).toEqual(trail);
  }, 90_000);

  it('starts with the submission through the API, and goes on across a rejection and the resubmission', async () => {
    const supplier = await tokenOf('SUPPLIER');
    const number = randomCorrelative();
    const xml = Buffer.from(
      tenantFixture('ubl/factura-ubl21-credito.xml').replace(
        '<cbc:ID>F001-00000458</cbc:ID>',
        `<cbc:ID>F001-${number}</cbc:ID>`,
      ),
    );
    const submit = async () =>
      call<InvoiceDetail>(routes.createInvoiceFromXml, {
        token: supplier,
        body: { url: await uploadAs(supplier, 'INVOICE_XML', xml, 'application/xml', 'comprobante.xml') },
      });
    const first = await submit();
    expect(first.status).toBe(201);
    const invoice = { supplierId: first.body.supplierId, invoiceType: first.body.type, invoiceId: first.body.id };

    expect(demoUser('SUPPLIER').signIn).toBe('password');
    // Staff read who and which call (the account's e-mail, the request id); the supplier reads the same record without.
    const staff = await tokenOf('ADMIN');
    const [submission] = await trailOf(invoice, staff);
    const [asSupplier] = await trailOf(invoice, supplier);
    expect(asSupplier).not.toHaveProperty('txId');
    expect(asSupplier!.actor).toEqual({ name: submission!.actor.name, role: 'SUPPLIER', signIn: 'PASSWORD' });
    expect(asSupplier!.changes).toEqual(submission!.changes);
    expect(submission).toMatchObject({
      action: 'SUBMITTED',
      txId: first.requestId,
      actor: { email: demoUser('SUPPLIER').username, role: 'SUPPLIER', signIn: 'PASSWORD' },
    });
    // A creation has nothing before: each field it was created with, numbers as numbers.
    expect(changeOf(submission, 'status')).toEqual({ field: 'status', before: null, after: 'PENDING' });
    expect(changeOf(submission, 'amount')).toEqual({ field: 'amount', before: null, after: first.body.amount });
    expect(submission!.changes.every((change) => change.before === null)).toBe(true);

    const reason = 'Falta la guía de remisión <b>firmada</b>';
    const rejected = await call(routes.disapproveInvoice, {
      token: await tokenOf('ADMIN'),
      path: invoice,
      query: { noRejection: 'true' },
      body: { reason },
    });
    expect(rejected.status).toBe(200);
    const again = await submit();
    expect(again.status).toBe(201);

    const trail = await trailOf(invoice, staff);
    // SUNAT's worker records its answers in between, whenever it runs.
    const people = trail.filter((event) => event.action !== 'SUNAT_CHECKED');
    expect(people.map((event) => event.action)).toEqual(['SUBMITTED', 'DISAPPROVED', 'RESUBMITTED']);
    const [, disapproval, resubmission] = people;
    // The reason is kept as the author wrote it, plain text.
    expect(disapproval).toMatchObject({ note: reason, actor: { role: 'ADMIN' }, txId: rejected.requestId });
    expect(changeOf(disapproval, 'status')).toEqual({ field: 'status', before: 'PENDING', after: 'REJECTED' });
    expect(resubmission).toMatchObject({ txId: again.requestId });
    expect(changeOf(resubmission, 'status')).toEqual({ field: 'status', before: 'REJECTED', after: 'PENDING' });
  }, 90_000);

  it("is another tenant's as the invoice is: 404 to them, and a cursor of one trail opens no other", async () => {
    const f = await reviewFixture({
      client: CLIENTS[2]!.taxId,
      clientName: CLIENTS[2]!.name,
      supplier: SUPPLIER,
      kind: null,
    });
    const admin = await tokenOf('ADMIN');
    await call(routes.disapproveInvoice, { token: admin, path: pathOf(f), query: {}, body: { reason: 'Prueba' } });
    // The demo supplier is not this invoice's supplier; the demo manager does not hold this company.
    for (const role of ['SUPPLIER', 'MANAGER'] as const) {
      const response = await call(routes.listInvoiceHistory, {
        token: await tokenOf(role),
        path: pathOf(f),
        query: {},
      });
      expect({ status: response.status, code: response.body.errors?.[0]?.code }).toEqual({
        status: 404,
        code: 'ERROR_INVOICE_NOT_FOUND',
      });
      expect(JSON.stringify(response.body)).not.toContain('Prueba');
    }

    // A cursor handed out for one invoice's trail, sent for another's, is refused.
    const g = await reviewFixture({ client: COMPANY.taxId, clientName: COMPANY.name, supplier: SUPPLIER, kind: null });
    // One record; a page of one stops at it and hands out a cursor (DynamoDB cannot know nothing follows).
    await call(routes.disapproveInvoice, { token: admin, path: pathOf(g), query: {}, body: { reason: 'Prueba' } });
    const firstPage = await call<{ nextCursor: string | null }>(routes.listInvoiceHistory, {
      token: admin,
      path: pathOf(g),
      query: { limit: '1' },
    });
    expect(firstPage.body.nextCursor).toEqual(expect.any(String));
    const crossed = await call(routes.listInvoiceHistory, {
      token: admin,
      path: pathOf(f),
      query: { limit: '1', cursor: firstPage.body.nextCursor! },
    });
    expect({ status: crossed.status, code: crossed.body.errors?.[0]?.code }).toEqual({
      status: 400,
      code: 'ERROR_INVALID_CURSOR',
    });
  });

  it('two managers at once: one record per change that committed, each taking up where the other left', async () => {
    const f = await reviewFixture({
      client: COMPANY.taxId,
      clientName: COMPANY.name,
      supplier: SUPPLIER,
      kind: 'SERVICE_SHEET',
    });
    const [manager, admin] = await Promise.all([tokenOf('MANAGER'), tokenOf('ADMIN')]);
    const answers = await Promise.all([
      call(routes.updateInvoice, { token: manager, path: pathOf(f), body: completion(f, EMPLOYEE.id) }),
      call(routes.updateInvoice, { token: admin, path: pathOf(f), body: completion(f, OTHER_EMPLOYEE.id) }),
    ]);
    const committed = answers.filter((answer) => answer.status === 200);
    expect(committed.length).toBeGreaterThan(0);

    const trail = await trailOf(pathOf(f));
    expect(trail).toHaveLength(committed.length);
    expect(trail.map((event) => event.txId).sort()).toEqual(committed.map((answer) => answer.requestId).sort());
    expect(trail[0]!.action).toBe('COMPLETED');
    // Each record starts from what the one before it left: no change is told twice or lost.
    for (let i = 1; i < trail.length; i++) {
      expect(trail[i]!.action).toBe('EDITED');
      expect(changeOf(trail[i], 'responsible')?.before).toBe(changeOf(trail[i - 1], 'responsible')?.after);
    }
  });

  it('commits a change and its record together: a record that cannot be written leaves the invoice as it was', async () => {
    const f = await reviewFixture({ client: COMPANY.taxId, clientName: COMPANY.name, supplier: SUPPLIER, kind: null });
    const { tableName } = stage();
    const db = stageDocumentClient();
    const store = makeInvoiceStore(db, tableName);
    const before = (await store.get(f.invoice.supplierId, f.invoice.type, f.invoice.id))!;
    const caller = {
      username: 'gestor',
      email: 'gestor@demo.pe',
      firstName: 'G',
      lastName: 'R',
      level: 'MANAGER',
      signIn: 'PASSWORD',
      txId: 'tx-too-large',
    } as Caller;
    // A record beyond DynamoDB's 400 KB item limit: its write fails, and with it the whole transaction.
    const stamp = callerStamp(caller, 'REJECTED', 'x'.repeat(420 * 1024));
    await expect(
      store.commit({ before, after: { ...before, status: 'REJECTED' }, whileStatusIn: ['PENDING'], audit: stamp }),
    ).rejects.toThrow();
    const after = (await store.get(f.invoice.supplierId, f.invoice.type, f.invoice.id))!;
    expect({ status: after.status, version: after.version }).toEqual({
      status: before.status,
      version: before.version,
    });
    expect(await trailOf(pathOf(f))).toEqual([]);
    db.destroy();
  });
});
