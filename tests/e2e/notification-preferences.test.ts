import { afterAll, describe, expect, test } from 'vitest';
import { routes, type NotificationPreferences } from '@portal/shared';
import { seriousA11yViolations } from '../support/a11y.js';
import { call } from '../support/api.js';
import { HEADER_TEXT, signedIn, tokenOf, visit } from '../support/header.js';
import { inBrowser } from '../support/web.js';

/** 'Preferencias de avisos' on the notifications screen (ADR 0050), at a laptop's width and a phone's. */
const preferencesOf = async () =>
  (await call<NotificationPreferences>(routes.getNotificationPreferences, { token: await tokenOf('SUPPLIER') })).body
    .items;

describe('notification preferences', () => {
  afterAll(async () => {
    await call(routes.putNotificationPreferences, { token: await tokenOf('SUPPLIER'), body: { items: [] } });
  });

  test.each([
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ])('turns a kind off in the feed and by e-mail, saved for the user, at $width px', async (viewport) => {
    await call(routes.putNotificationPreferences, { token: await tokenOf('SUPPLIER'), body: { items: [] } });
    await inBrowser(`notification-preferences-${viewport.width}`, async (page) => {
      await page.setViewportSize(viewport);
      await signedIn(page, 'SUPPLIER');
      await visit(page, '/notifications');
      await page.getByRole('heading', { name: HEADER_TEXT.notificationsTitle, level: 1 }).waitFor();

      // Act
      await page.getByRole('button', { name: 'Preferencias de avisos' }).click();
      const dialog = page.getByRole('dialog', { name: 'Preferencias de avisos' });
      const row = dialog.getByTestId('preference-INVOICE_PAID');
      await row.waitFor();
      const feed = row.getByRole('checkbox', { name: 'En notificaciones' });
      const email = row.getByRole('checkbox', { name: 'Por correo' });
      // Assess: today's behaviour by default, a feed-only kind says it is not e-mailed
      expect(await feed.isChecked()).toBe(true);
      expect(await email.isChecked()).toBe(true);
      await dialog.getByTestId('preference-SUNAT_VALID').getByText('No se envía por correo').waitFor();
      // The dialog fits the screen: nothing wider than the viewport
      const box = await dialog.getByTestId('preference-INVOICE_PAID').boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
      expect(
        await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number),
      ).toBeLessThanOrEqual(viewport.width);
      expect(await seriousA11yViolations(page)).toEqual([]);

      await feed.uncheck();
      await email.uncheck();
      await dialog.getByRole('button', { name: 'Guardar' }).click();

      // Assess: told, closed, and kept for the user
      await page.getByText('Tus preferencias de avisos fueron guardadas.').waitFor();
      await dialog.waitFor({ state: 'hidden' });
      await expect
        .poll(async () => (await preferencesOf()).find((item) => item.kind === 'INVOICE_PAID'))
        .toMatchObject({ feed: false, email: false });
    });
  });
});
