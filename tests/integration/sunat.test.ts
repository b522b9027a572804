import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { keys, routes, withCheckDigit, type InvoiceDetail, type SunatValidationMessage } from '@portal/shared';
import { CLIENTS } from '../support/tenant.js';
import { call, idTokenOf } from '../support/api.js';
import { reviewFixture, table, type ReviewFixture } from '../support/fixtures.js';
import { demoUser, stage } from '../support/stage.js';
import { readUntil, until } from '../support/until.js';
import { sunatQueriesAbout, sunatWillAnswer } from '../support/sunat.js';

/**
 * The SUNAT worker behind the stage's SUNAT queue, against the SUNAT simulator: an invoice that
 * intake left with certStatus PENDING is validated and the answer shows in its detail.
 * (A message that keeps failing reaches the DLQ only after maxReceiveCount × 180 s of visibility
 * timeout; that path is covered by the worker's unit tests and the poller's tests.)
 */
const COMPANY = CLIENTS[0]!;
const SUPPLIER = { taxId: withCheckDigit('2070000009'), name: 'Proveedor SUNAT de Pruebas S.A.C.' };
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

const manager = () => idTokenOf(demoUser('MANAGER').username, demoUser('MANAGER').password);

async function pendingInvoice(): Promise<ReviewFixture['invoice']> {
  const { invoice } = await reviewFixture({
    client: COMPANY.taxId,
    clientName: COMPANY.name,
    supplier: SUPPLIER,
    kind: null,
    certStatus: 'PENDING',
  });
  return invoice;
}

async function sendForValidation(invoice: ReviewFixture['invoice']): Promise<void> {
  const { endpoints, region, queues } = stage();
  const sqs = new SQSClient({ region, endpoint: endpoints.sqs, credentials });
  const message: SunatValidationMessage = {
    supplierId: invoice.supplierId,
    invoiceType: invoice.type,
    invoiceId: invoice.id,
  };
  await sqs.send(
    new SendMessageCommand({ QueueUrl: queues.sunatValidation!.url, MessageBody: JSON.stringify(message) }),
  );
}

/** The invoice detail as the manager sees it, once SUNAT's answer is in (or the last one read). */
async function detailOnceCertified(invoice: ReviewFixture['invoice'], timeoutMs = 25_000): Promise<InvoiceDetail> {
  const read = async () => {
    const response = await call<InvoiceDetail>(routes.getInvoice, {
      token: await manager(),
      path: { supplierId: invoice.supplierId, invoiceType: invoice.type, invoiceId: invoice.id },
    });
    expect(response.status).toBe(200);
    return response.body;
  };
  return readUntil(read, (detail) => detail.certStatus !== 'PENDING', { timeout: timeoutMs });
}

/** The supplier's feed items about the invoice that say `text`, once there are some (or the last read). */
async function noticesInFeed(invoice: ReviewFixture['invoice'], text: string, timeoutMs = 15_000) {
  const read = async () =>
    (await table().partition(keys.feed('SUPPLIER', invoice.supplierId))).filter((item) =>
      String(item.message).includes(text),
    );
  return readUntil(read, (notices) => notices.length > 0, { timeout: timeoutMs });
}

describe('SUNAT validation', () => {
  it('marks a document SUNAT accepts VALID and shows SUNAT answer in the detail', async () => {
    // Prepare
    const invoice = await pendingInvoice();
    await sunatWillAnswer(invoice, 'VALID');

    // Act
    await sendForValidation(invoice);
    const detail = await detailOnceCertified(invoice);

    // Assess
    expect(detail).toMatchObject({
      certStatus: 'VALID',
      status: 'PENDING',
      statusMessage: null,
      statusHistory: invoice.statusHistory,
      sunat: {
        estadoCp: '1',
        estadoRuc: 'ACTIVO',
        condDomiRuc: 'HABIDO',
        observaciones: [],
        checkedAt: expect.any(String),
      },
    });
    expect(await sunatQueriesAbout(invoice)).toBe(1);
    // Its notice, committed with the verdict, was sent at once (not left for the sweeper) and handled once.
    expect(await noticesInFeed(invoice, `SUNAT confirmó la validez de la factura ${invoice.id} `)).toHaveLength(1);
    // ... and acknowledged (its item gone) long before the relay would send it (it is committed as sent).
    const ofThisInvoice = async () =>
      (await table().outgoing('notifications')).filter(({ body }) => body.invoiceId === invoice.id);
    await until(async () => (await ofThisInvoice()).length === 0, { message: "the verdict's notice acknowledged" });
    expect(await ofThisInvoice()).toEqual([]);
  });

  it("marks an annulled document INVALID with SUNAT's reason, its status unchanged", async () => {
    const invoice = await pendingInvoice();
    await sunatWillAnswer(invoice, 'ANNULLED');

    await sendForValidation(invoice);
    const detail = await detailOnceCertified(invoice);

    expect(detail).toMatchObject({
      certStatus: 'INVALID',
      status: 'PENDING',
      statusMessage: 'El comprobante fue anulado (comunicado de baja) ante SUNAT.',
      statusHistory: invoice.statusHistory,
      sunat: { estadoCp: '2' },
    });
  });

  it('validates a document whose first query SUNAT answers too slowly, within the same delivery', async () => {
    const invoice = await pendingInvoice();
    await sunatWillAnswer(invoice, 'SLOW');

    await sendForValidation(invoice);
    const detail = await detailOnceCertified(invoice);

    expect(detail.certStatus).toBe('VALID');
    expect(await sunatQueriesAbout(invoice)).toBe(2);
  });
});
