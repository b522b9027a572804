import { expect, it } from 'vitest';
import { routes, type Invoice, type InvoiceDetail, type Notification } from '@portal/shared';
import { SUPPLIERS, tenantFixture } from '../support/tenant.js';
import { call, idTokenOf } from '../support/api.js';
import { acknowledged, mailbox } from '../support/fixtures.js';
import { completeAndApprove } from '../support/invoices.js';
import { demoUser } from '../support/stage.js';
import { uploadAs } from '../support/uploads.js';
import { runSchedule } from '../support/schedules.js';
import { until } from '../support/until.js';
import { stageSap } from '../support/sap.js';

/**
 * The whole life of an invoice on the local stage, as its people would live it: the supplier uploads a UBL XML, SUNAT's
 * simulator validates it, the manager completes and approves it, SAP's simulator receives exactly one posting, a
 * payment run schedules and then pays it, and the supplier reads every step in its notifications and its e-mail.
 */
const SUPPLIER = SUPPLIERS[0]!;
const INVOICE_ID = 'F001-777';

/** How long each step of the journey is waited for, and how often it is asked. */
const WAIT = { timeout: 25_000, interval: 200 } as const;

const runPaymentSync = () => runSchedule('PaymentSync', WAIT.timeout);

it('goes from the supplier’s XML to PAID, with one SAP posting and every notification', async () => {
  const supplierUser = demoUser('SUPPLIER');
  const supplier = await idTokenOf(supplierUser.username, supplierUser.password);
  const manager = await idTokenOf(demoUser('MANAGER').username, demoUser('MANAGER').password);
  const invoicePath = { supplierId: SUPPLIER.taxId, invoiceType: 'FACTURA', invoiceId: INVOICE_ID };
  const detail = async () => (await call<InvoiceDetail>(routes.getInvoice, { token: manager, path: invoicePath })).body;
  const mailsBefore = (await mailbox()).length;

  // 1. The supplier uploads its factura (the corpus document, with a correlative of its own).
  const xml = tenantFixture('ubl/factura-ubl21-credito.xml');
  const url = await uploadAs(
    supplier,
    'INVOICE_XML',
    Buffer.from(xml.replaceAll('F001-00000458', 'F001-00000777')),
    'application/xml',
    'F001-777.xml',
  );
  const received = await call<Invoice>(routes.createInvoiceFromXml, { token: supplier, body: { url } });
  expect(received.status).toBe(201);
  expect(received.body).toMatchObject({ id: INVOICE_ID, status: 'PENDING', certStatus: 'PENDING', amount: 11800 });

  // 2. SUNAT's simulator confirms it.
  await until(async () => (await detail()).certStatus === 'VALID', { message: 'SUNAT validation', ...WAIT });

  // 3. The manager completes it with the purchase order and the HES SAP holds, and approves it.
  await completeAndApprove(manager, INVOICE_ID, { order: '4500777000', net: 10000 });

  // 4. SAP receives exactly one posting, whose number the invoice keeps.
  const posted = await until(async () => (await detail()).sapDocument ?? null, { message: 'the SAP posting', ...WAIT });
  expect(posted).toMatchObject({ number: expect.any(String) });
  const postings = await stageSap<{ byInvoice: Record<string, number> }>(
    `/__control/postings?supplierId=${SUPPLIER.taxId}`,
  );
  expect(postings.byInvoice[`${SUPPLIER.taxId}/${INVOICE_ID}`]).toBe(1);

  // 5. Payment runs schedule it, then pay it.
  await stageSap('/__control/payment-run', {
    invoices: [
      { supplierId: SUPPLIER.taxId, invoiceId: INVOICE_ID, invoiceType: 'FACTURA', scheduledAt: '2026-12-15' },
    ],
  });
  await runPaymentSync();
  expect(await detail()).toMatchObject({ status: 'SCHEDULED', scheduledAt: '2026-12-15' });
  await stageSap('/__control/payment-run', {
    invoices: [
      {
        supplierId: SUPPLIER.taxId,
        invoiceId: INVOICE_ID,
        invoiceType: 'FACTURA',
        scheduledAt: '2026-12-15',
        paidAt: '2026-12-16',
      },
    ],
  });
  await runPaymentSync();
  const paid = await detail();
  expect(paid).toMatchObject({ status: 'PAID', paidAt: '2026-12-16' });
  expect(paid.statusHistory.map((entry) => entry.status)).toEqual([
    'PENDING',
    'COMPLETED',
    'ACCEPTED',
    'SCHEDULED',
    'PAID',
  ]);

  // 6. The supplier reads each step in its notifications, and got by e-mail the three it must know (ADR 0039): the
  // receipt, the approval (each with the expected payment) and the payment.
  const steps = ['Se recibió', 'SUNAT confirmó', 'aprobó', 'programó el pago', 'pagó'];
  const mailed = ['Se recibió', 'aprobó', 'pagó'];
  const feed = await until(
    async () => {
      const items = (await call<{ items: Notification[] }>(routes.listNotifications, { token: supplier })).body.items;
      const about = items.filter((item) => item.reference?.invoiceId === INVOICE_ID).map((item) => item.message);
      return steps.every((step) => about.some((text) => text.includes(step))) && about;
    },
    { message: 'the supplier notifications', ...WAIT },
  );
  expect(feed).toHaveLength(steps.length);
  const mails = await until(
    async () => {
      const all = (await mailbox()).slice(0, (await mailbox()).length - mailsBefore);
      const mine = all.filter((mail) => mail.to.includes(supplierUser.username) && mail.text.includes(INVOICE_ID));
      return mine.length >= mailed.length && mine;
    },
    { message: 'the e-mails', ...WAIT },
  );
  // Every notice of the invoice handled whole: an e-mail too many would be in the mailbox by now.
  await acknowledged(
    'notifications',
    (_, body) => body.invoiceId === INVOICE_ID && body.supplierId === SUPPLIER.taxId,
    'the notices of the invoice',
  );
  const all = await mailbox();
  const mine = all
    .slice(0, all.length - mailsBefore)
    .filter((mail) => mail.to.includes(supplierUser.username) && mail.text.includes(INVOICE_ID));
  expect(mine).toHaveLength(mailed.length);
  for (const step of mailed) expect(mails.some((mail) => mail.text.includes(step))).toBe(true);
});
