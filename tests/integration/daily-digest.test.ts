import { expect, it } from 'vitest';
import { keys, routes, type Invoice, type Notification } from '@portal/shared';
import { advanceStageClock } from '../../local/runtime/stage-clock.js';
import { CLIENTS } from '../support/tenant.js';
import { call } from '../support/api.js';
import { putStageClockBack } from '../support/acquirer-conformity.js';
import { acknowledged, mailbox, table } from '../support/fixtures.js';
import { followToPaid, freshCorrelative, supplierToken, ublFactura } from '../support/invoices.js';
import { demoUser, stage } from '../support/stage.js';
import { uploadAs } from '../support/uploads.js';
import { runSchedule } from '../support/schedules.js';
import { until } from '../support/until.js';

/**
 * The e-mails of an invoice's life (ADR 0039): its supplier is e-mailed three times (received, approved, paid), its
 * company's staff not at all while it happens; the next morning's «Resumen diario» tells each staff account with
 * reception on, once, whatever runs the digest again.
 */
const COMPANY = CLIENTS[0]!;
const runDigest = () => runSchedule('DailyDigest');

it('e-mails the supplier 3 times in an invoice’s life and the staff nothing, until the next morning’s one digest', async () => {
  const stamp = Date.now();
  // Two staff accounts of the company as the user administration indexes them: reception on, and off.
  const on = { userId: `digest-on-${stamp}`, email: `resumen-${stamp}@grupoandino.pe`, canReceiveEmails: true };
  const off = { userId: `digest-off-${stamp}`, email: `sin-resumen-${stamp}@grupoandino.pe`, canReceiveEmails: false };
  for (const account of [on, off]) await table().put({ ...keys.recipient(COMPANY.taxId, account.userId), ...account });
  const supplierEmail = demoUser('SUPPLIER').username;
  const staffEmails = [on.email, off.email, demoUser('MANAGER').username];

  // The supplier uploads a factura; SUNAT validates it; the manager completes and approves it; SAP pays it.
  const supplier = await supplierToken();
  const { bytes, invoiceId, net } = ublFactura(freshCorrelative());
  const url = await uploadAs(supplier, 'INVOICE_XML', bytes, 'application/xml', `${invoiceId}.xml`);
  const received = await call<Invoice>(routes.createInvoiceFromXml, { token: supplier, body: { url } });
  expect(received.status).toBe(201);
  await followToPaid(invoiceId, net, { scheduledAt: '2026-12-15', paidAt: '2026-12-16' });

  // Every step is in the supplier's feed at once (the worker writes the feeds, then e-mails).
  await until(
    async () => {
      const items = (await call<{ items: Notification[] }>(routes.listNotifications, { token: supplier })).body.items;
      return items.filter((item) => item.reference?.invoiceId === invoiceId).length === 5;
    },
    { message: 'the supplier feed' },
  );
  const about = async () => (await mailbox()).filter((mail) => mail.text.includes(invoiceId));
  await until(async () => (await about()).filter((m) => m.to.includes(supplierEmail)).length >= 3, {
    message: 'the supplier e-mails',
  });
  // Every notice of the invoice handled whole: an e-mail too many would be in the mailbox by now.
  await acknowledged('notifications', (_, body) => body.invoiceId === invoiceId, 'the notices of the invoice');
  const during = await about();
  const firstLines = during.filter((m) => m.to.includes(supplierEmail)).map((m) => m.text.split('\n')[0]!);
  expect(firstLines).toHaveLength(3);
  expect(firstLines.some((line) => line.startsWith('Se recibió') && line.includes('Fecha de pago estimada'))).toBe(
    true,
  );
  expect(firstLines.some((line) => line.includes(`aprobó la factura ${invoiceId}.`))).toBe(true);
  expect(firstLines.some((line) => line.includes(`pagó la factura ${invoiceId}`))).toBe(true);
  expect(during.filter((m) => m.to.some((to) => staffEmails.includes(to)))).toEqual([]);

  try {
    // The next morning (the stage's clock a day ahead), the digest runs: once, and once again by mistake.
    await advanceStageClock(stage().dataDir, 86_400);
    await runDigest();
    await runDigest();
    const digests = (await mailbox()).filter((m) => m.subject.includes('Resumen diario') && m.text.includes(invoiceId));
    expect(digests.filter((m) => m.to.includes(on.email))).toHaveLength(1);
    expect(digests.filter((m) => m.to.includes(demoUser('MANAGER').username))).toHaveLength(1);
    expect(digests.filter((m) => m.to.includes(off.email))).toEqual([]);
    expect(digests.filter((m) => m.to.includes(supplierEmail))).toEqual([]);
    const [digest] = digests.filter((m) => m.to.includes(on.email));
    expect(digest!.subject).toContain(`Resumen diario del`);
    expect(digest!.subject).toContain(COMPANY.name);
    expect(digest!.text).toMatch(/- \d+ comprobantes? recibidos?/);
    const link = `${stage().webUrl}/invoices/${received.body.supplierId}/FACTURA/${encodeURIComponent(invoiceId)}`;
    const line = digest!.text.split('\n').find((text) => text.includes(`Factura ${invoiceId} `));
    expect(line).toContain('recibido, válido en SUNAT, pagado');
    expect(digest!.text).toContain(link);
    expect(digest!.html).toContain(`<a href="${link}">`);
    expect(digest!.text).toContain(`Ver todos los comprobantes en el portal: ${stage().webUrl}/invoices`);
  } finally {
    await putStageClockBack();
  }
}, 120_000);
