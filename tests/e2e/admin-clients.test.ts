import { describe, expect, test } from 'vitest';
import { normalizeForSearch } from '@portal/shared';
import { CLIENTS, stageCompanies } from '../support/tenant.js';
import { documentScreen, seriousA11yViolations } from '../support/a11y.js';
import { demoUser } from '../support/stage.js';
import { VIEWS_TEXT, openFromMenu } from '../support/views.js';
import { inBrowser, openLogin, signInAs } from '../support/web.js';
import type { Page } from 'playwright-core';

/** The cards on screen, each as [name, RUC, address]. */
async function cards(page: Page): Promise<string[][]> {
  const items = page.getByRole('listitem').filter({ has: page.getByTestId('client-name') });
  const result: string[][] = [];
  for (const item of await items.all()) {
    result.push([
      (await item.getByTestId('client-name').textContent())!.trim(),
      (await item.getByTestId('client-tax-id').textContent())!.trim(),
      (await item.getByTestId('client-address').textContent())!.trim(),
    ]);
  }
  return result.sort();
}

const WAIT = { timeout: 20_000 };

describe('admin clients', () => {
  test("an admin sees the group's companies as cards with RUC, name and address, and finds one by name or RUC", async () => {
    // Prepare
    const admin = demoUser('ADMIN');
    // Every company of the stage (the demo world's and each test tenant's), this file's three among them.
    const row = (client: (typeof CLIENTS)[number]) => [client.name, client.taxId, client.address];
    const expected = stageCompanies().map(row).sort();
    const minera = CLIENTS.find((client) => client.name.startsWith('Minera'))!;
    const pacifico = stageCompanies()
      .filter((client) => normalizeForSearch(client.name).includes('pacifico'))
      .map(row)
      .sort();
    const last = CLIENTS[2]!;

    await inBrowser('admin-clients', async (page) => {
      await openLogin(page);
      await signInAs(page, admin);
      await page.waitForURL((url) => url.pathname === '/');

      // Act
      await openFromMenu(page, VIEWS_TEXT.clientsTitle);
      await page.getByRole('heading', { name: VIEWS_TEXT.clientsTitle, level: 1 }).waitFor();

      // Assess: the companies, each with its logo or the avatar of its initials
      await expect.poll(() => cards(page), WAIT).toEqual(expected);
      expect(expected).toEqual(expect.arrayContaining(CLIENTS.map(row)));
      expect(CLIENTS).toHaveLength(3);
      for (const client of CLIENTS) {
        expect(await page.getByRole('img', { name: VIEWS_TEXT.logoOf(client.name) }).isVisible()).toBe(true);
      }
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'clients');

      // Act: a part of the name, without its accent
      await page.getByRole('searchbox', { name: VIEWS_TEXT.clientsFilter }).fill('pacifico');

      // Assess
      await expect.poll(() => cards(page), WAIT).toEqual(pacifico);
      expect(pacifico).toContainEqual(row(minera));

      // Act: a RUC
      await page.getByRole('searchbox', { name: VIEWS_TEXT.clientsFilter }).fill(last.taxId);

      // Assess
      await expect.poll(() => cards(page), WAIT).toEqual([[last.name, last.taxId, last.address]]);
    });
  });
});
