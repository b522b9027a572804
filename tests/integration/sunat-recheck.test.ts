import { describe, expect, it } from 'vitest';
import { SUNAT_RECHECK_HISTORY_TITLE, keys, routes, withCheckDigit, type InvoiceDetail } from '@portal/shared';
import { openSunatCheckItem } from '../../functions/src/repositories/sunat-checks.js';
import { outcomeByConvention } from '../../local/simulators/sunat.js';
import { CLIENTS, buildWorld } from '../support/tenant.js';
import { call, idTokenOf } from '../support/api.js';
import { reviewFixture, table, type ReviewFixture } from '../support/fixtures.js';
import { demoUser } from '../support/stage.js';
import { runSchedule } from '../support/schedules.js';
import { readUntil } from '../support/until.js';
import { sunatQueriesAbout, sunatWillAnswer } from '../support/sunat.js';

/**
 * No invoice waits for SUNAT with nothing coming. The outbox sweeper asks SUNAT again about an invoice
 * whose SUNAT message is gone (never written, as the seed's; abandoned by the relay), and staff ask for a new check
 * from the detail (POST …/sunat-validation): idempotent, in the history, refused in other states, tenant-bound.
 */
const COMPANY = CLIENTS[0]!;
const FOREIGN_COMPANY = CLIENTS[2]!;
const SUPPLIER = { taxId: withCheckDigit('2070000200'), name: 'Proveedor Reconsulta SUNAT S.A.C.' };

type Fixture = ReviewFixture['invoice'];
const tokenOf = (role: 'MANAGER' | 'ADMIN' | 'SUPPLIER') => idTokenOf(demoUser(role).username, demoUser(role).password);
const pathOf = (invoice: Pick<Fixture, 'supplierId' | 'type' | 'id'>) => ({
  supplierId: invoice.supplierId,
  invoiceType: invoice.type,
  invoiceId: invoice.id,
});

async function invoiceAt(
  client: (typeof CLIENTS)[number],
  certStatus: 'PENDING' | 'INVALID' | 'VALID',
  status: 'PENDING' | 'REJECTED' = 'PENDING',
) {
  const { invoice } = await reviewFixture({
    client: client.taxId,
    clientName: client.name,
    supplier: SUPPLIER,
    kind: null,
    certStatus,
    status,
  });
  if (certStatus === 'INVALID') {
    // As the SUNAT worker leaves it: SUNAT's reason in the observation.
    await table().put({
      ...(await table().get(keys.invoice(invoice.supplierId, invoice.type, invoice.id))),
      statusMessage: 'El comprobante no existe en los registros de SUNAT.',
    });
  }
  return invoice;
}

/** Runs the outbox sweeper now, and waits for that run to end. */
const runSweeper = () => runSchedule('OutboxSweeper');

async function detailOf(invoice: Pick<Fixture, 'supplierId' | 'type' | 'id'>, role: 'MANAGER' | 'ADMIN' = 'MANAGER') {
  const response = await call<InvoiceDetail>(routes.getInvoice, { token: await tokenOf(role), path: pathOf(invoice) });
  expect(response.status).toBe(200);
  return response.body;
}

/** Polls the detail until `done` holds (the SUNAT worker runs behind its queue); the last one read otherwise. */
async function detailUntil(
  invoice: Pick<Fixture, 'supplierId' | 'type' | 'id'>,
  done: (detail: InvoiceDetail) => boolean,
  role: 'MANAGER' | 'ADMIN' = 'MANAGER',
): Promise<InvoiceDetail> {
  return readUntil(() => detailOf(invoice, role), done, { timeout: 25_000 });
}

const request = async (
  invoice: Pick<Fixture, 'supplierId' | 'type' | 'id'>,
  role: 'MANAGER' | 'ADMIN' | 'SUPPLIER' = 'MANAGER',
) => call<InvoiceDetail>(routes.requestSunatValidation, { token: await tokenOf(role), path: pathOf(invoice) });

const checkOf = (invoice: Fixture) => table().get(keys.sunatCheck(invoice.supplierId, invoice.type, invoice.id));
const sunatMessagesAbout = async (invoice: Fixture) =>
  (await table().outgoing('sunatValidation')).filter((message) => message.body.invoiceId === invoice.id);
const staffRequests = (detail: InvoiceDetail) =>
  detail.statusHistory.filter((entry) => entry.title === SUNAT_RECHECK_HISTORY_TITLE);

describe('the outbox sweeper re-drives invoices waiting for SUNAT with nothing coming', () => {
  it('an invoice received twenty minutes ago whose SUNAT message was lost (none on record, as the seed’s) ends VALID without anyone acting', async () => {
    const invoice = await invoiceAt(COMPANY, 'PENDING');
    await sunatWillAnswer(invoice, 'VALID');
    const receivedAt = new Date(Date.now() - 20 * 60_000);
    await table().put(openSunatCheckItem(invoice, { pendingSince: receivedAt, dueAt: receivedAt, outgoingId: null }));
    expect((await detailOf(invoice)).sunatCheck).toMatchObject({ pendingSince: receivedAt.toISOString() });

    await runSweeper();
    const detail = await detailUntil(invoice, (read) => read.certStatus !== 'PENDING');

    expect(detail.certStatus).toBe('VALID');
    expect(detail.sunatCheck).toBeUndefined();
    expect(await checkOf(invoice)).toMatchObject({ state: 'DONE' });
    expect(await sunatQueriesAbout(invoice)).toBe(1);
    // Nobody asked: the history is the intake's alone.
    expect(staffRequests(detail)).toEqual([]);
  });

  it('an invoice whose SUNAT message the relay gave up on ends VALID', async () => {
    const invoice = await invoiceAt(COMPANY, 'PENDING');
    await sunatWillAnswer(invoice, 'VALID');
    const receivedAt = new Date(Date.now() - 60 * 60_000);
    const lost = keys.outgoing('sunatValidation', `lost-${invoice.id}`);
    await table().put({
      ...lost,
      queue: 'sunatValidation',
      body: JSON.stringify(pathOf(invoice)),
      createdAt: receivedAt.toISOString(),
      sentAt: receivedAt.toISOString(),
      relays: 3,
      abandonedAt: new Date(Date.now() - 10 * 60_000).toISOString(),
    });
    await table().put(
      openSunatCheckItem(invoice, {
        pendingSince: receivedAt,
        dueAt: receivedAt,
        outgoingId: lost.pk.split('#').pop()!,
      }),
    );

    await runSweeper();

    expect((await detailUntil(invoice, (read) => read.certStatus !== 'PENDING')).certStatus).toBe('VALID');
  });

  it('the seeded invoices that waited for SUNAT when the stage started have SUNAT’s answer', async () => {
    const seeded = buildWorld().invoices.filter(
      (invoice) =>
        invoice.certStatus === 'PENDING' &&
        invoice.client === COMPANY.taxId &&
        outcomeByConvention(invoice.numericId) === 'VALID',
    );
    expect(seeded.length).toBeGreaterThan(0);
    for (const invoice of seeded) {
      const detail = await detailUntil(invoice, (read) => read.certStatus !== 'PENDING', 'ADMIN');
      expect({ id: invoice.id, certStatus: detail.certStatus }).toEqual({ id: invoice.id, certStatus: 'VALID' });
    }
  });
});

describe('POST …/sunat-validation: staff ask SUNAT again', () => {
  it('asks again about an invoice SUNAT did not validate: 202, PENDING with since when, who asked in the history, then VALID', async () => {
    const invoice = await invoiceAt(COMPANY, 'INVALID');
    await sunatWillAnswer(invoice, 'VALID');

    const response = await request(invoice);

    expect(response.status, JSON.stringify(response.body)).toBe(202);
    expect(response.body).toMatchObject({
      certStatus: 'PENDING',
      statusMessage: null,
      sunatCheck: {
        pendingSince: expect.any(String),
        nextCheckAt: expect.any(String),
        requestedBy: demoUser('MANAGER').username,
      },
    });
    expect(staffRequests(response.body)).toEqual([
      expect.objectContaining({
        status: 'PENDING',
        by: demoUser('MANAGER').username,
        additionalMessage: 'El comprobante no existe en los registros de SUNAT.',
      }),
    ]);
    expect((await detailUntil(invoice, (read) => read.certStatus !== 'PENDING')).certStatus).toBe('VALID');
  });

  it('two staff asking at once queue one check; asking again while it runs changes nothing; SUNAT down shows in the detail', async () => {
    const invoice = await invoiceAt(COMPANY, 'INVALID');
    // SUNAT cannot be asked about it: the check stays queued (its message waits for redelivery).
    await sunatWillAnswer(invoice, 'FAILING');

    const [manager, admin] = await Promise.all([request(invoice, 'MANAGER'), request(invoice, 'ADMIN')]);

    expect([manager.status, admin.status]).toEqual([202, 202]);
    const afterBoth = await detailOf(invoice);
    expect(staffRequests(afterBoth)).toHaveLength(1);
    expect(await sunatMessagesAbout(invoice)).toHaveLength(1);

    const failing = await detailUntil(invoice, (read) => Boolean(read.sunatCheck?.lastFailureAt));
    expect(failing.sunatCheck).toMatchObject({ lastFailureAt: expect.any(String) });
    const again = await request(invoice, 'MANAGER');
    expect(again.status).toBe(202);
    expect(again.body.certStatus).toBe('PENDING');
    expect(staffRequests(again.body)).toHaveLength(1);
    expect(await sunatMessagesAbout(invoice)).toHaveLength(1);
  });

  it.each([
    ['VALID', 'PENDING', 'ERROR_SUNAT_VALIDATION_ALREADY_VALID', 'SUNAT ya confirmó la validez del comprobante'],
    ['INVALID', 'REJECTED', 'ERROR_SUNAT_VALIDATION_NOT_UNDER_REVIEW', 'pendiente de revisión'],
  ] as const)(
    'refuses an invoice whose SUNAT status is %s and status %s with 409 and a Spanish message',
    async (certStatus, status, code, message) => {
      const invoice = await invoiceAt(COMPANY, certStatus, status);
      const before = await detailOf(invoice);

      const response = await request(invoice);

      expect(response.status).toBe(409);
      expect(response.body).toEqual({
        statusCode: 409,
        message: expect.stringContaining(message),
        txId: response.requestId,
        errors: [{ code, parameters: expect.any(Object) }],
      });
      expect(await detailOf(invoice)).toEqual(before);
      expect(await sunatMessagesAbout(invoice)).toEqual([]);
    },
  );

  it('is staff’s: a supplier gets 403, and a manager gets 404 for another company’s invoice, which stays as it was', async () => {
    const own = await invoiceAt(COMPANY, 'INVALID');
    const foreign = await invoiceAt(FOREIGN_COMPANY, 'INVALID');

    const bySupplier = await call(routes.requestSunatValidation, {
      token: await idTokenOf(demoUser('SUPPLIER').username, demoUser('SUPPLIER').password),
      path: pathOf(own),
    });
    const byOtherManager = await request(foreign, 'MANAGER');

    expect({ status: bySupplier.status, code: bySupplier.body.errors[0].code }).toEqual({
      status: 403,
      code: 'ERROR_FORBIDDEN',
    });
    expect({ status: byOtherManager.status, body: byOtherManager.body }).toEqual({
      status: 404,
      body: {
        statusCode: 404,
        message: 'No se encontró el comprobante solicitado.',
        txId: byOtherManager.requestId,
        errors: [{ code: 'ERROR_INVOICE_NOT_FOUND', parameters: {} }],
      },
    });
    expect((await detailOf(foreign, 'ADMIN')).certStatus).toBe('INVALID');
    expect(await sunatMessagesAbout(foreign)).toEqual([]);
  });
});
