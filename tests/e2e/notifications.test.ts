import { describe, expect, test } from 'vitest';
import { routes, type Notification } from '@portal/shared';
import { CLIENTS, SUPPLIERS } from '../support/tenant.js';
import { documentScreen, seriousA11yViolations } from '../support/a11y.js';
import { call } from '../support/api.js';
import { reviewFixture } from '../support/fixtures.js';
import { HEADER_TEXT, feedOf, notificationsButton, signedIn, tokenOf, visit } from '../support/header.js';
import { detailPanel } from '../support/invoice-detail.js';
import { stage } from '../support/stage.js';
import { inBrowser, settledInvoices } from '../support/web.js';

/**
 * A fresh event in the demo supplier's feed: a new invoice of its own (never a seeded one), rejected
 * by the manager through the API, as the review screen would. Resolves with the feed item.
 */
async function freshRejection(reason: string): Promise<Notification> {
  const supplier = SUPPLIERS[0]!;
  const client = CLIENTS[0]!;
  const { invoice } = await reviewFixture({
    client: client.taxId,
    clientName: client.name,
    supplier: { taxId: supplier.taxId, name: supplier.name },
    kind: null,
  });
  const rejected = await call(routes.disapproveInvoice, {
    token: await tokenOf('MANAGER'),
    path: { supplierId: supplier.taxId, invoiceType: invoice.type, invoiceId: invoice.id },
    body: { reason },
  });
  expect(rejected.status).toBe(200);
  let item: Notification | undefined;
  await expect
    .poll(
      async () => {
        item = (await feedOf('SUPPLIER')).find((candidate) => candidate.reference?.invoiceId === invoice.id);
        return item;
      },
      { timeout: 30_000, interval: 250 },
    )
    .toBeDefined();
  return item!;
}

describe('recent-notifications panel', () => {
  test('shows a fresh event with the unread count; "marcar como leídas" clears it; the item opens its invoice', async () => {
    // Prepare
    const notification = await freshRejection('Falta la orden de compra (prueba del panel).');
    const invoiceId = notification.reference!.invoiceId!;

    await inBrowser('notifications-panel', async (page) => {
      await signedIn(page, 'SUPPLIER');

      // Act
      const bell = notificationsButton(page);
      await expect.poll(() => bell.getAttribute('aria-label')).toMatch(/^Notificaciones, \d+ sin leer$/);
      await bell.click();

      // Assess: the event, newest first, marked new
      const item = page.getByRole('menuitem', { name: new RegExp(escapeRegExp(notification.message)) });
      await item.waitFor();
      expect(await item.textContent()).toContain('Nueva');
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'notifications-panel');

      // Act: mark them read
      await page.getByRole('menuitem', { name: HEADER_TEXT.markAsRead }).click();

      // Assess: no count in the header, nothing unread in the feed
      await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notificaciones, ninguna sin leer');
      expect((await bell.textContent())?.trim()).toBe('Notificaciones');
      expect((await feedOf('SUPPLIER')).filter((candidate) => !candidate.isRead)).toEqual([]);

      // Act: the item links to its invoice
      await bell.click();
      await page.getByRole('menuitem', { name: new RegExp(escapeRegExp(notification.message)) }).click();

      // Assess: the invoice's detail, beside the list filtered to it
      const { issuerTaxId, invoiceType } = notification.reference!;
      await page.waitForURL(
        (url) =>
          url.pathname === `/invoices/${issuerTaxId}/${invoiceType}/${invoiceId}` &&
          url.searchParams.get('search') === invoiceId,
      );
      await detailPanel(page, invoiceId).waitFor({ timeout: 30_000 });
      await settledInvoices(page);
      await expect.poll(() => page.getByTestId('invoice-number').allTextContents()).toContain(invoiceId);
    });
  });

  test('an account without notifications reads the empty text', async () => {
    // The administrator has no company of its own, so no feed reaches it (the API answers an empty list).
    expect(await feedOf('ADMIN')).toEqual([]);

    await inBrowser('notifications-empty', async (page) => {
      await signedIn(page, 'ADMIN');
      await notificationsButton(page).click();
      await page.getByRole('menuitem', { name: HEADER_TEXT.noNotifications }).waitFor();

      await visit(page, '/notifications');
      await page.getByRole('heading', { name: HEADER_TEXT.notificationsTitle, level: 1 }).waitFor();
      await page.getByText(HEADER_TEXT.noNotifications).waitFor();
    });
  });

  test('a feed that cannot load says so', async () => {
    await inBrowser('notifications-error', async (page) => {
      // Prepare: the API fails to answer the feed (as when the service is down)
      await page.route(`${stage().apiUrl.replace(/\/+$/, '')}/notifications`, (route) =>
        route.request().method() === 'GET'
          ? route.fulfill({
              status: 500,
              contentType: 'application/json',
              body: JSON.stringify({ statusCode: 500, message: 'Error', txId: 'e2e-notifications', errors: [] }),
            })
          : route.continue(),
      );
      await signedIn(page, 'SUPPLIER');

      // Act
      await notificationsButton(page).click();

      // Assess
      await page.getByRole('menuitem', { name: HEADER_TEXT.notificationsError }).waitFor();
    });
  });

  test('on a 375 px screen «Opciones» leads to the notifications screen, and stays open as the count arrives', async () => {
    // Prepare: an unread event, and a feed that answers only once the user has opened «Opciones»
    await freshRejection('Falta la guía de remisión (prueba del teléfono).');
    await inBrowser('notifications-mobile', async (page) => {
      await page.setViewportSize({ width: 375, height: 812 });
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(
        (url) => url.pathname.endsWith('/notifications'),
        async (route) => {
          if (route.request().method() === 'GET') await held;
          await route.continue();
        },
      );
      await signedIn(page, 'SUPPLIER');

      // Act
      await page.getByRole('button', { name: HEADER_TEXT.moreOptions, exact: true }).click();
      const entry = page.getByRole('link', { name: HEADER_TEXT.notifications });
      await entry.waitFor();
      expect((await entry.textContent())?.trim()).toBe('Notificaciones');
      release();

      // Assess: the count arrives in the menu the user opened, which stays open; the entry opens the whole feed
      await expect.poll(async () => (await entry.textContent())?.trim()).toMatch(/^Notificaciones \(\d+\)$/);
      await entry.click();
      await page.waitForURL((url) => url.pathname === '/notifications');
      await page.getByRole('heading', { name: HEADER_TEXT.notificationsTitle, level: 1 }).waitFor();
    });
  });
});

describe('notifications screen', () => {
  test('lists the feed newest first, read and unread, and marks everything read', async () => {
    // Prepare: one event read, then a newer one unread
    const older = await freshRejection('Monto distinto al de la orden de compra (prueba de la bandeja).');
    await call(routes.markNotificationsAsRead, {
      token: await tokenOf('SUPPLIER'),
      body: { upTo: older.registeredAt },
    });
    const newer = await freshRejection('Falta el sustento del servicio (prueba de la bandeja).');

    await inBrowser('notifications-screen', async (page) => {
      await signedIn(page, 'SUPPLIER');

      // Act
      await visit(page, '/notifications');
      await page.getByRole('heading', { name: HEADER_TEXT.notificationsTitle, level: 1 }).waitFor();
      const messages = page.getByTestId('notification-message');
      await messages.first().waitFor();

      // Assess: newest first, the newer one unread and the older one read
      const texts = await messages.allTextContents();
      expect(texts.indexOf(newer.message)).toBeGreaterThanOrEqual(0);
      expect(texts.indexOf(newer.message)).toBeLessThan(texts.indexOf(older.message));
      const rowOf = (message: string) => page.getByRole('row').filter({ hasText: message });
      expect(await rowOf(newer.message).textContent()).toContain('Sin leer');
      expect(await rowOf(older.message).textContent()).toContain('Leída');
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'notifications');

      // Act
      await page.getByRole('button', { name: HEADER_TEXT.markAllAsRead }).click();

      // Assess
      await expect.poll(() => rowOf(newer.message).textContent()).toContain('Leída');
      await expect
        .poll(() => notificationsButton(page).getAttribute('aria-label'))
        .toBe('Notificaciones, ninguna sin leer');
      expect((await feedOf('SUPPLIER')).every((candidate) => candidate.isRead)).toBe(true);
    });
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
