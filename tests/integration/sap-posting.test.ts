import { describe, expect, it } from 'vitest';
import {
  ERROR_MESSAGES,
  MIRO_POSTING,
  keys,
  routes,
  withCheckDigit,
  type DashboardCounts,
  type InvoiceDetail,
} from '@portal/shared';
import { CLIENTS } from '../support/tenant.js';
import { call, idTokenOf } from '../support/api.js';
import { reviewFixture, table, type ReviewFixture } from '../support/fixtures.js';
import { complete, invoicePath, postingsAtSap, registerWithSap, sapControl } from '../support/sap.js';
import { demoUser, stage } from '../support/stage.js';
import { driveUntil } from '../support/schedules.js';

/**
 * The SAP posting of an approved invoice as people see it and as the stage's own worker and outbox
 * sweeper drive it (the test runs the sweeper while it waits, as its schedule would; a failed attempt is tried again
 * after 2 s, 4 s …). Everything at CLIENTS[0], which the demo manager reaches (CLIENTS[1]'s counts are the dashboard
 * test's), with a supplier only this file uses.
 */
const COMPANY = CLIENTS[0]!;
const SUPPLIER = { taxId: withCheckDigit('2070000121'), name: 'Proveedor Contable de Pruebas S.A.C.' };

const admin = () => idTokenOf(demoUser('ADMIN').username, demoUser('ADMIN').password);
const manager = () => idTokenOf(demoUser('MANAGER').username, demoUser('MANAGER').password);

/** A completed invoice of this file's supplier; SAP knows its documents unless `unknownToSap`. */
async function completed(options: { unknownToSap?: boolean } = {}): Promise<ReviewFixture> {
  const f = await reviewFixture({
    client: COMPANY.taxId,
    clientName: COMPANY.name,
    supplier: SUPPLIER,
    kind: 'SERVICE_SHEET',
  });
  if (!options.unknownToSap) await registerWithSap(stage().endpoints.sap, [f]);
  await complete(f, await admin());
  return f;
}

async function detailOf(f: ReviewFixture, token?: string): Promise<InvoiceDetail> {
  const answer = await call<InvoiceDetail>(routes.getInvoice, {
    token: token ?? (await manager()),
    path: invoicePath(f.invoice),
  });
  expect(answer.status).toBe(200);
  return answer.body;
}

/** Waits for the posting's state, running the outbox sweeper meanwhile as the stage's schedule would. */
const postingState = (f: ReviewFixture, state: string) =>
  driveUntil(
    `the SAP posting of ${f.invoice.id} ${state}`,
    ['OutboxSweeper'],
    async () => {
      const detail = await detailOf(f);
      return detail.sapPosting?.state === state && detail;
    },
    { timeout: 25_000 },
  );

const retry = async (f: ReviewFixture, token: string) =>
  call(routes.retrySapPosting, { token, path: invoicePath(f.invoice) });

describe('SAP posting of an approved invoice', () => {
  it('shows a failed attempt at once, with its reason and next attempt, then retries it and posts once', async () => {
    const f = await completed();
    // Every HTTP try of the first attempt fails (the SAP client tries three times per attempt).
    await sapControl(stage().endpoints.sap, '/__control/fail', { count: 3, status: 503, supplierId: SUPPLIER.taxId });
    const approved = await call<InvoiceDetail>(routes.approveInvoice, {
      token: await admin(),
      path: invoicePath(f.invoice),
    });
    expect(approved.status).toBe(200);
    // The approval's answer shows the posting as the approval committed it: in the queue, whatever the worker has
    // done with it since (the next read shows that).
    expect(approved.body.sapPosting?.state).toBe('QUEUED');
    expect(approved.body.sapPosting?.late).toBe(false);

    const retrying = await postingState(f, 'RETRYING');
    expect(retrying.sapPosting).toMatchObject({
      attempts: 1,
      maxAttempts: MIRO_POSTING.maxAttempts,
      nextAttemptAt: expect.any(String),
      reason: expect.stringContaining('HTTP 503'),
      document: null,
    });

    const posted = await postingState(f, 'POSTED');
    expect(posted.sapPosting).toMatchObject({ attempts: 2, document: posted.sapDocument, reason: null });
    expect(posted.sapDocument?.number).toMatch(/^\d{10}$/);
    expect((await postingsAtSap(stage().endpoints.sap, SUPPLIER.taxId))[`${SUPPLIER.taxId}/${f.invoice.id}`]).toBe(1);
  });

  it('lets an administrator retry a FAILED posting, once however many ask at the same time; a manager cannot', async () => {
    // SAP refuses the posting (it does not hold the HES yet): every attempt fails.
    const f = await completed({ unknownToSap: true });
    expect((await call(routes.approveInvoice, { token: await admin(), path: invoicePath(f.invoice) })).status).toBe(
      200,
    );
    await postingState(f, 'RETRYING');
    // The attempts so far and a next one that is the last: the test need not wait through the whole backoff.
    const key = keys.miroOutbox(f.invoice.supplierId, f.invoice.type, f.invoice.id);
    const record = await table().get(key);
    await table().put({ ...record, attempts: MIRO_POSTING.maxAttempts - 1 });
    // FAILED on the record, then the catalogue's message on the invoice (the worker writes them in that order).
    const failed = await driveUntil(
      'the posting FAILED with its message on the invoice',
      ['OutboxSweeper'],
      async () => {
        const detail = await detailOf(f);
        return detail.sapPosting?.state === 'FAILED' && detail.statusMessage !== null && detail;
      },
      { timeout: 25_000 },
    );
    expect(failed.sapPosting).toMatchObject({
      attempts: MIRO_POSTING.maxAttempts,
      reason: expect.stringContaining('SAP rejected the request (400)'),
    });
    expect(failed.statusMessage).toBe(ERROR_MESSAGES.ERROR_UNEXPECTED_EXCEPTION_DURING_MIRO_CREATION_REQUEST_SUBMIT);

    const refused = await retry(f, await manager());
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      statusCode: 403,
      errors: [expect.objectContaining({ code: expect.any(String) })],
    });
    expect((await detailOf(f)).sapPosting?.state).toBe('FAILED');

    // SAP gets the document; two administrators retry at the same moment.
    await registerWithSap(stage().endpoints.sap, [f]);
    const token = await admin();
    const answers = await Promise.all([retry(f, token), retry(f, token)]);
    expect(answers.map((answer) => answer.status)).toEqual([202, 202]);
    for (const answer of answers) expect(answer.body.sapPosting?.state).not.toBe('FAILED');
    const after = await table().get(key);
    expect(after).toMatchObject({ retriedBy: expect.any(String) });

    const posted = await postingState(f, 'POSTED');
    expect(posted.statusMessage).toBeNull();
    expect(posted.sapDocument).toEqual(posted.sapPosting?.document);
    expect((await postingsAtSap(stage().endpoints.sap, SUPPLIER.taxId))[`${SUPPLIER.taxId}/${f.invoice.id}`]).toBe(1);
    // A detail that read the invoice just before the worker stored the document on it, and the record just after
    // it was POSTED: shown as POSTED with the document, not beside the failure the retry is clearing.
    const invoiceKey = keys.invoice(f.invoice.supplierId, f.invoice.type, f.invoice.id);
    const stored = await table().get(invoiceKey);
    await table().put({ ...stored, sapDocument: null, statusMessage: failed.statusMessage });
    expect(await detailOf(f)).toMatchObject({ statusMessage: null, sapDocument: posted.sapDocument });
    await table().put(stored!);
    // The round of attempts started again from one: a single retry, not two.
    expect(await table().get(key)).toMatchObject({ state: 'POSTED', attempts: 1 });

    const again = await retry(f, token);
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([
      { code: 'ERROR_SAP_POSTING_ALREADY_POSTED', parameters: { document: posted.sapDocument!.number } },
    ]);
    expect(again.body.message).toBe(
      `El comprobante ya está contabilizado en SAP con el documento ${posted.sapDocument!.number}.`,
    );
  });

  it('answers 409 to a retry of an invoice that has no posting (not approved)', async () => {
    const f = await completed();
    const answer = await retry(f, await admin());
    expect(answer.status).toBe(409);
    expect(answer.body.errors[0].code).toBe('ERROR_SAP_POSTING_NOT_FOUND');
    expect(answer.body.message).toBe(ERROR_MESSAGES.ERROR_SAP_POSTING_NOT_FOUND);
  });

  it('counts late and failed postings on the dashboard, as they are now', async () => {
    const counts = async () => {
      const answer = await call<DashboardCounts>(routes.getDashboard, {
        token: await manager(),
        query: { client: COMPANY.taxId },
      });
      expect(answer.status).toBe(200);
      return answer.body;
    };
    const before = await counts();
    // One approved ten minutes ago and still being posted (its worker holds it for an hour), one FAILED.
    const approvedAt = new Date(Date.now() - 10 * 60_000).toISOString();
    const leaseEnd = new Date(Date.now() + 3_600_000).toISOString();
    const late = keys.miroOutbox(SUPPLIER.taxId, 'FACTURA', `FL01-${Date.now() % 1e8}`);
    const failed = keys.miroOutbox(SUPPLIER.taxId, 'FACTURA', `FF01-${Date.now() % 1e8}`);
    const base = { supplierId: SUPPLIER.taxId, invoiceType: 'FACTURA', client: COMPANY.taxId, createdAt: approvedAt };
    await table().putMiroRecord({
      ...late,
      ...base,
      invoiceId: late.pk.split('#')[3],
      idempotencyKey: late.pk,
      state: 'POSTING' as const,
      attempts: 1,
      postingUntil: leaseEnd,
      ...keys.miroIndexes({ ...late, client: COMPANY.taxId, createdAt: approvedAt }, 'POSTING', leaseEnd),
    });
    await table().putMiroRecord({
      ...failed,
      ...base,
      invoiceId: failed.pk.split('#')[3],
      idempotencyKey: failed.pk,
      state: 'FAILED' as const,
      attempts: MIRO_POSTING.maxAttempts,
      lastError: 'SAP caído',
      ...keys.miroIndexes({ ...failed, client: COMPANY.taxId, createdAt: approvedAt }, 'FAILED', null),
    });
    const after = await counts();
    expect(after.latePostings).toBe((before.latePostings ?? 0) + 1);
    expect(after.failedPostings).toBe((before.failedPostings ?? 0) + 1);
    // The counts of invoices by status are the counters', untouched.
    expect(after.accepted).toBe(before.accepted);
  });
});
