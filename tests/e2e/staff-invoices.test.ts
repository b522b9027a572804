import { describe, expect, test } from 'vitest';
import { parseTaxIds } from '@portal/shared';
import { buildWorld, stageCompanies } from '../support/tenant.js';
import { demoUser } from '../support/stage.js';
import { inBrowser, openLogin, rowAttribute, settledInvoices, signInAs } from '../support/web.js';

const world = buildWorld();

describe('staff journeys', () => {
  test("a manager sees its active company's invoices and switches to its other company", async () => {
    // Prepare
    const manager = demoUser('MANAGER');
    const [first, second] = parseTaxIds(manager.taxId) as [string, string];
    const secondName = world.invoices.find((invoice) => invoice.client === second)!.clientName;

    await inBrowser('manager-invoices', async (page) => {
      await openLogin(page);

      // Act
      await signInAs(page, manager);
      await page.waitForURL((url) => url.pathname === '/');
      await settledInvoices(page);

      // Assess: only the first company, and every supplier of the group that billed it
      expect(await page.getByTestId('invoices-error').count()).toBe(0);
      const clients = await rowAttribute(page, 'invoice-number', 'data-client-id');
      expect(clients.length).toBeGreaterThan(0);
      expect(new Set(clients)).toEqual(new Set([first]));

      // Act: the client filter offers only the manager's companies
      await page.getByTestId('client-filter').getByRole('button').first().click();
      const offered = await page.getByRole('option').allTextContents();
      expect(offered.length).toBe(2);
      await page.getByRole('option', { name: new RegExp(secondName) }).click();

      // Assess
      await expect
        .poll(async () => new Set(await rowAttribute(page, 'invoice-number', 'data-client-id')))
        .toEqual(new Set([second]));
    });
  });

  test('an admin sees the first company of the group without choosing, then any other', async () => {
    const admin = demoUser('ADMIN');
    // The group's companies on this stage: the demo world's and every test tenant's, this file's among them.
    const companies = stageCompanies().map((client) => client.taxId);
    expect(companies).toEqual(expect.arrayContaining([...new Set(world.invoices.map((invoice) => invoice.client))]));

    await inBrowser('admin-invoices', async (page) => {
      await openLogin(page);
      await signInAs(page, admin);
      await page.waitForURL((url) => url.pathname === '/');
      await settledInvoices(page);

      expect(await page.getByTestId('invoices-error').count()).toBe(0);
      const clients = new Set(await rowAttribute(page, 'invoice-number', 'data-client-id'));
      expect(clients.size).toBe(1);
      expect(companies).toContain([...clients][0]);

      await page.getByTestId('client-filter').getByRole('button').first().click();
      expect((await page.getByRole('option').allTextContents()).length).toBe(companies.length);
    });
  });
});
