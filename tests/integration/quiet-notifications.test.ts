import { afterAll, describe, expect, it } from 'vitest';
import {
  notificationAbout,
  notificationText,
  routes,
  type IntakeBatch,
  type IntakeBatchSummary,
  type Notification,
  type NotificationPreferences,
} from '@portal/shared';
import { CLIENTS, SUPPLIERS, buildWorld } from '../support/tenant.js';
import { call } from '../support/api.js';
import { mailbox, sendTracked, table } from '../support/fixtures.js';
import { freshCorrelative, supplierToken, ublFactura } from '../support/invoices.js';
import { demoUser } from '../support/stage.js';
import { MINIMAL_PDF, uploadAs, zipOf } from '../support/uploads.js';
import { until } from '../support/until.js';

/**
 * Quiet notifications on the local stage (ADR 0050): a zip of many documents leaves its uploader one notice and no
 * notice per document in the supplier's or the staff's feed; a kind a user turns off reaches neither their feed nor
 * their e-mail; a kind whose e-mail alone is off still reaches the feed with no e-mail sent.
 */
const SUPPLIER = SUPPLIERS[0]!;
const COMPANY = CLIENTS[0]!;
const DOCUMENTS = 100;
const world = buildWorld();

const subOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string }).sub;

const feedOf = async (token: string) =>
  (await call<{ items: Notification[] }>(routes.listNotifications, { token })).body.items;

const choose = (token: string, items: { kind: string; feed: boolean; email: boolean | null }[]) =>
  call<NotificationPreferences>(routes.putNotificationPreferences, { token, body: { items } });

describe('quiet notifications on the local stage', () => {
  // The supplier's choices go back to the defaults, so that the file leaves its tenant as it found it.
  afterAll(async () => {
    await choose(await supplierToken(), []);
  });

  it("leaves a zip of many documents one notice, its summary, and none per document in either side's feed", async () => {
    const token = await supplierToken();
    const entries: [string, Buffer][] = [];
    const ids: string[] = [];
    for (let i = 0; i < DOCUMENTS; i++) {
      const { bytes, invoiceId } = ublFactura(freshCorrelative());
      const base = `${SUPPLIER.taxId}-01-${invoiceId}`;
      entries.push([`${base}.xml`, bytes], [`${base}.pdf`, MINIMAL_PDF]);
      ids.push(invoiceId);
    }
    const key = await uploadAs(token, 'INVOICE_ZIP', await zipOf(entries), 'application/zip', 'silencio.zip');
    const created = await call<IntakeBatchSummary>(routes.createIntakeBatch, { token, body: { url: key } });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const batchId = created.body.id;
    const done = await until(
      async () => {
        const read = await call<IntakeBatch>(routes.getIntakeBatch, { token, path: { batchId }, query: {} });
        return read.body.status === 'DONE' && read.body;
      },
      { message: 'the zip to end', timeout: 180_000, interval: 500 },
    );
    expect(done.counts.accepted).toBe(DOCUMENTS);

    const db = table();
    const zipNotices = await until(
      async () => {
        const items = (await db.partition(`FEED#USER#${subOf(token)}`)).filter((item) =>
          String(item.message).includes('«silencio.zip»'),
        );
        return items.length > 0 && items;
      },
      { message: 'the zip notice' },
    );
    expect(zipNotices).toHaveLength(1);
    expect(zipNotices[0]).toMatchObject({ kind: 'ZIP_PROCESSED' });
    // The staff's receipts are in the company's digest log, one per document, for the morning's digest.
    const logged = await until(
      async () => {
        const items = (await db.partition(`DIGEST#CLIENT#${COMPANY.taxId}`)).filter(
          (item) => item.event === 'INVOICE_RECEIVED' && ids.includes(String(item.reference?.invoiceId)),
        );
        return items.length === DOCUMENTS && items;
      },
      { message: 'the receipts in the digest log' },
    );
    expect(logged).toHaveLength(DOCUMENTS);
    const receiptsIn = async (pk: string) =>
      (await db.partition(pk)).filter(
        (item) => item.event === 'INVOICE_RECEIVED' && ids.includes(String(item.reference?.invoiceId)),
      );
    expect(await receiptsIn(`FEED#SUPPLIER#${SUPPLIER.taxId}`)).toEqual([]);
    expect(await receiptsIn(`FEED#CLIENT#${COMPANY.taxId}`)).toEqual([]);
    // Nor an e-mail per document: the one e-mail is the zip's summary.
    const mails = (await mailbox()).filter((mail) => ids.some((id) => mail.text.includes(id)));
    expect(mails).toEqual([]);
    const feed = await feedOf(token);
    expect(feed.filter((item) => item.message.includes('«silencio.zip»'))).toHaveLength(1);
  }, 240_000);

  it('keeps a kind the user turned off out of their feed and their e-mail; a colleague still gets it', async () => {
    const token = await supplierToken();
    const saved = await choose(token, [{ kind: 'INVOICE_APPROVED', feed: false, email: false }]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.items.find((item) => item.kind === 'INVOICE_APPROVED')).toMatchObject({
      feed: false,
      email: false,
    });
    const read = await call<NotificationPreferences>(routes.getNotificationPreferences, { token });
    expect(read.body).toEqual(saved.body);

    const invoice = world.invoices.find((i) => i.supplierId === SUPPLIER.taxId && i.client === COMPANY.taxId)!;
    const message = notificationAbout('INVOICE_APPROVED', invoice, null, new Date());
    const handled = await sendTracked('notifications', message);
    await handled();
    const expected = notificationText(message);
    // Written to the supplier's feed (its colleagues read it), hidden from the one who turned it off.
    const stored = (await table().partition(`FEED#SUPPLIER#${SUPPLIER.taxId}`)).filter(
      (item) => item.message === expected,
    );
    expect(stored).toHaveLength(1);
    expect((await feedOf(token)).filter((item) => item.message === expected)).toEqual([]);
    const mine = (await mailbox()).filter(
      (mail) => mail.text.includes(expected) && mail.to.includes(demoUser('SUPPLIER').username),
    );
    expect(mine).toEqual([]);
  });

  it('sends no e-mail of a kind whose e-mail alone is off, and shows it in the feed', async () => {
    const token = await supplierToken();
    await choose(token, [{ kind: 'INVOICE_OBSERVED', feed: true, email: false }]);
    const invoice = world.invoices.find((i) => i.supplierId === SUPPLIER.taxId && i.client === COMPANY.taxId)!;
    const message = notificationAbout('INVOICE_OBSERVED', invoice, 'Falta la guía de remisión.', new Date());
    const handled = await sendTracked('notifications', message);
    await handled();
    const expected = notificationText(message);
    expect((await feedOf(token)).filter((item) => item.message === expected)).toHaveLength(1);
    expect((await mailbox()).filter((mail) => mail.text.includes(expected))).toEqual([]);
  });

  it('refuses a choice the caller cannot make with a Spanish error in the error body', async () => {
    const token = await supplierToken();
    const refused = await call<{ message: string; errors: { code: string }[] }>(routes.putNotificationPreferences, {
      token,
      body: { items: [{ kind: 'MIRO_FAILED', feed: false, email: false }] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      message: 'El valor de «items[0].kind» no es válido: el aviso «Error de registro en SAP» no es de su perfil.',
      errors: [{ code: 'ERROR_INVALID_PARAMETER' }],
    });
  });
});
