import { describe, expect, test } from 'vitest';
import { SUPPLIERS } from '../support/tenant.js';
import { apiClientsMessages as TEXT } from '../../web/src/pages/api-clients/messages.js';
import { documentScreen, seriousA11yViolations } from '../support/a11y.js';
import { demoUser } from '../support/stage.js';
import { openFromMenu } from '../support/views.js';
import { inBrowser, openLogin, signInAs } from '../support/web.js';

const WAIT = { timeout: 20_000 };

describe('Clientes de API', () => {
  test('an administrator creates a supplier’s API client, copies its secret once, and revokes it', async () => {
    // Prepare
    const admin = demoUser('ADMIN');
    const supplier = SUPPLIERS[0]!;
    const name = `ERP ${Date.now()}`;

    await inBrowser('api-clients', async (page) => {
      await openLogin(page);
      await signInAs(page, admin);
      await page.waitForURL((url) => url.pathname === '/');

      // Act: the menu, then «Crear cliente de API» with the supplier's RUC and a name
      await openFromMenu(page, TEXT.title);
      await page.getByRole('heading', { name: TEXT.title, level: 1 }).waitFor();
      await page.getByRole('button', { name: TEXT.create }).click();
      const form = page.getByRole('dialog', { name: TEXT.form.header });
      await form.getByLabel(TEXT.form.taxId).fill(supplier.taxId);
      await form.getByLabel(TEXT.form.name).fill(name);
      await form.getByRole('button', { name: TEXT.form.confirm, exact: true }).click();

      // Assess: the secret, once, with the warning; the list then shows the client without it
      const shown = page.getByRole('dialog', { name: TEXT.secret.header });
      await shown.waitFor(WAIT);
      const secret = (await page.getByTestId('api-client-secret').textContent())!.trim();
      expect(secret.length).toBeGreaterThan(20);
      expect(await shown.getByText(TEXT.secret.warning).isVisible()).toBe(true);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'api-client-secret');
      await shown.getByRole('button', { name: TEXT.secret.close, exact: true }).click();
      const row = page.getByRole('row').filter({ hasText: name });
      await row.waitFor(WAIT);
      expect(await row.textContent()).toContain(supplier.name);
      expect(await page.content()).not.toContain(secret);

      // Act: «Revocar», confirmed
      await row.getByRole('button', { name: `${TEXT.revoke} ${name}` }).click();
      const confirm = page.getByRole('dialog', { name: TEXT.revokeConfirm.header });
      await confirm.getByRole('button', { name: TEXT.revokeConfirm.confirm, exact: true }).click();

      // Assess
      await expect.poll(async () => (await row.textContent()) ?? '', WAIT).toContain('Revocado el');
      expect(await row.getByRole('button', { name: `${TEXT.revoke} ${name}` }).count()).toBe(0);
    });
  });
});
