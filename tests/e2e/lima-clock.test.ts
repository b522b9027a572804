import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { routes, type InvoiceAuditEvent, type InvoiceDetail, type Notification } from '@portal/shared';
import { CLIENTS, SUPPLIERS } from '../support/tenant.js';
import { call } from '../support/api.js';
import { anInvoice, between } from '../support/builders.js';
import { table } from '../support/fixtures.js';
import { feedOf, notificationsButton, signedIn, tokenOf } from '../support/header.js';
import { DETAIL_TEXT, detailPanel } from '../support/invoice-detail.js';
import { freshCorrelative } from '../support/invoices.js';
import { appUrl, inBrowser } from '../support/web.js';

const SUPPLIER = SUPPLIERS[0]!;
const CLIENT = CLIENTS[0]!;

/**
 * A timestamp as Lima reads it, worked out here on its own: Lima keeps UTC-5 all year.
 * '2026-11-05T03:30:00Z' is '04/11/26 22:30 (hora de Lima)'.
 */
function inLima(iso: string): string {
  const lima = new Date(Date.parse(iso) - 5 * 60 * 60 * 1000);
  const two = (value: number) => String(value).padStart(2, '0');
  const day = `${two(lima.getUTCDate())}/${two(lima.getUTCMonth() + 1)}/${String(lima.getUTCFullYear()).slice(2)}`;
  return `${day} ${two(lima.getUTCHours())}:${two(lima.getUTCMinutes())} (hora de Lima)`;
}

/**
 * An invoice of the demo supplier received at 03:30 UTC (22:30 the day before in Lima, 04:30 in Madrid),
 * then rejected by the manager through the API: a status history across midnight UTC, and a fresh
 * notification in the supplier's feed.
 */
async function rejectedAcrossMidnight(): Promise<{ invoice: InvoiceDetail; notification: Notification }> {
  const numericId = freshCorrelative();
  const id = `FL01-${numericId}`;
  const invoice = anInvoice({
    prefixId: 'FL01',
    numericId,
    ...between(SUPPLIER, CLIENT),
    issuedAt: '2026-11-04',
    receivedAt: '2026-11-05T03:30:00.000Z',
  });
  await table().putInvoice(invoice);
  const path = { supplierId: SUPPLIER.taxId, invoiceType: invoice.type, invoiceId: id };
  const rejected = await call<InvoiceDetail>(routes.disapproveInvoice, {
    token: await tokenOf('MANAGER'),
    path,
    body: { reason: 'Prueba de la hora de Lima.' },
  });
  expect(rejected.status).toBe(200);
  let notification: Notification | undefined;
  await expect
    .poll(
      async () => {
        notification = (await feedOf('SUPPLIER')).find((item) => item.reference?.invoiceId === id);
        return notification;
      },
      { timeout: 30_000, interval: 250 },
    )
    .toBeDefined();
  return { invoice: rejected.body, notification: notification! };
}

/**
 * What a supplier reads of the times in a browser set to `timezoneId`: the notification's time in the
 * header's panel and on the notifications screen, and each change in the invoice's 'Historial', each
 * as Lima reads the API's timestamp.
 */
async function expectLimaTimesIn(
  timezoneId: string,
  invoice: InvoiceDetail,
  notification: Notification,
  expected: { registered: string; trail: string[]; history: string[] },
): Promise<void> {
  await inBrowser(
    `lima-clock-${timezoneId}`,
    async (page: Page) => {
      // The browser's own clock is not Lima's
      expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(timezoneId);
      await signedIn(page, 'SUPPLIER');

      // The notifications panel of the header
      await notificationsButton(page).click();
      const item = page.getByRole('menuitem').filter({ hasText: notification.message });
      await item.waitFor();
      expect(await item.innerText(), timezoneId).toContain(expected.registered);
      await page.keyboard.press('Escape');

      // The notifications screen
      await page.goto(appUrl('/notifications'));
      const row = page.getByRole('row').filter({ hasText: notification.message });
      expect((await row.locator('time').innerText()).trim(), timezoneId).toBe(expected.registered);

      // The invoice's 'Historial'
      await page.goto(appUrl(`/invoices/${invoice.supplierId}/${invoice.type}/${invoice.id}`));
      const detail = detailPanel(page, invoice.id);
      await detail.waitFor({ timeout: 30_000 });
      await detail.getByRole('button', { name: DETAIL_TEXT.history }).click();
      // The trail's records (here the rejection) and the status history the invoice was stored with before it.
      const trail = page.getByTestId('invoice-trail').getByTestId('history-when');
      await trail.first().waitFor();
      expect(
        (await trail.allInnerTexts()).map((text) => text.trim()),
        timezoneId,
      ).toEqual(expected.trail);
      const history = await page.getByTestId('invoice-history').getByTestId('history-when').allInnerTexts();
      expect(
        history.map((text) => text.trim()),
        timezoneId,
      ).toEqual(expected.history);
    },
    { timezoneId },
  );
}

describe('one clock: every time a user reads is Lima’s', () => {
  test('browsers in Madrid and in UTC read the same Lima times in the notifications and the history', async () => {
    const { invoice, notification } = await rejectedAcrossMidnight();
    const registered = inLima(notification.registeredAt);
    const history = invoice.statusHistory.map((entry) => inLima(entry.date));
    // The first change happened on the 4th in Lima, though it was the 5th in UTC and in Madrid.
    expect(history[0]).toBe('04/11/26 22:30 (hora de Lima)');
    const path = { supplierId: invoice.supplierId, invoiceType: invoice.type, invoiceId: invoice.id };
    const records = await call<{ items: InvoiceAuditEvent[] }>(routes.listInvoiceHistory, {
      token: await tokenOf('MANAGER'),
      path,
      query: {},
    });
    const trail = records.body.items.map((event) => inLima(event.occurredAt));
    expect(trail).toHaveLength(1);

    for (const timezoneId of ['Europe/Madrid', 'UTC']) {
      await expectLimaTimesIn(timezoneId, invoice, notification, { registered, trail, history });
    }
  });
});
