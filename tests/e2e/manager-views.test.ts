import { isDeepStrictEqual } from 'node:util';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { parseTaxIds, routes, type DashboardCounts } from '@portal/shared';
import { CLIENTS, EMPLOYEES, SUPPLIERS, buildWorld } from '../support/tenant.js';
import { documentScreen, seriousA11yViolations } from '../support/a11y.js';
import { call, idTokenOf } from '../support/api.js';
import { demoUser } from '../support/stage.js';
import {
  VIEWS_TEXT,
  chooseCompanyInHeader,
  chooseOption,
  conformityRows,
  countsOf,
  dashboardCounts,
  escapeRegExp,
  expectedConformityRows,
  openFromMenu,
  scrollsSideways,
  settledConformity,
  settledDashboard,
} from '../support/views.js';
import { appUrl, inBrowser, startSignedIn } from '../support/web.js';

/**
 * The manager's views of spec §2: HES and MIGO lists, and the dashboard. Read-only. The exact
 * expectations are the demo world's at the manager's second company (CLIENTS[1]), where no other test
 * adds, claims or reviews anything; its first company (CLIENTS[0]) is compared with the API instead,
 * since the review tests add invoices and documents there.
 */
const world = buildWorld();
const manager = demoUser('MANAGER');
const [FIRST, SECOND] = parseTaxIds(manager.taxId) as [string, string];
const SECOND_COMPANY = CLIENTS.find((client) => client.taxId === SECOND)!;
const WAIT = { timeout: 20_000 };

const managerToken = () => idTokenOf(manager.username, manager.password);

async function dashboardOf(client: string, period?: string): Promise<DashboardCounts> {
  const response = await call<DashboardCounts>(routes.getDashboard, {
    token: await managerToken(),
    query: { client, period },
  });
  expect(response.status).toBe(200);
  return response.body;
}

/**
 * Waits until the dashboard shows what the API counts now, and answers those counts. The SAP postings late and
 * failed are counts of "right now" that the stage's own workers move at any time (an earlier file's posting running
 * out of attempts): when the page and the API differ, the page is refreshed ('Actualizar') and both are read again.
 */
async function shownAsCounted(page: Page, client: string, period?: string): Promise<DashboardCounts> {
  let counted: DashboardCounts | null = null;
  await expect
    .poll(async () => {
      counted = await dashboardOf(client, period);
      const shown = await dashboardCounts(page);
      if (isDeepStrictEqual(shown, counted)) return 'the same';
      // Refreshing already (its button waits): the next read sees what it brings.
      await page
        .getByRole('button', { name: VIEWS_TEXT.refresh })
        .click({ timeout: 5_000 })
        .catch(() => undefined);
      return { shown, counted };
    }, WAIT)
    .toBe('the same');
  return counted!;
}

/** The month in which the seed issued most invoices of a company, as the filters name it. */
function busiestMonth(client: string): { month: number; year: number; period: string; prefix: string } {
  const perMonth = new Map<string, number>();
  for (const invoice of world.invoices.filter((candidate) => candidate.client === client)) {
    const month = invoice.issuedAt.slice(0, 7);
    perMonth.set(month, (perMonth.get(month) ?? 0) + 1);
  }
  const [prefix] = [...perMonth.entries()].sort((a, b) => b[1] - a[1])[0]!;
  const [year, month] = prefix.split('-') as [string, string];
  return { month: Number(month), year: Number(year), period: `${month}/${year}`, prefix };
}

describe('manager views', () => {
  test('a manager lists the HES of its active company, filters them by issuer RUC and switches to MIGO', async () => {
    // Prepare
    const issuer = SUPPLIERS[0]!.taxId;
    const allHes = expectedConformityRows(world, 'SERVICE_SHEET', SECOND);
    const issuerHes = expectedConformityRows(world, 'SERVICE_SHEET', SECOND, (doc) => doc.issuerTaxId === issuer);
    const allMigo = expectedConformityRows(world, 'MATERIAL_DOCUMENT', SECOND);
    // A responsible of some of the company's MIGO (the seed gives each employee one kind of document).
    const migoResponsible = world.conformityDocuments.find(
      (doc) => doc.kind === 'MATERIAL_DOCUMENT' && doc.acquirerTaxId === SECOND,
    )!.responsible;
    const responsible = EMPLOYEES[SECOND]!.find((employee) => employee.id === migoResponsible)!;
    const responsibleMigo = expectedConformityRows(
      world,
      'MATERIAL_DOCUMENT',
      SECOND,
      (doc) => doc.responsible === responsible.id,
    );
    expect(issuerHes.length).toBeGreaterThan(0);
    expect(issuerHes.length).toBeLessThan(allHes.length);
    expect(responsibleMigo.length).toBeGreaterThan(0);
    expect(responsibleMigo.length).toBeLessThan(allMigo.length);
    const claimed = issuerHes.find((row) => row[7] !== VIEWS_TEXT.available);
    expect(claimed).toBeDefined();
    expect(issuerHes.some((row) => row[7] === VIEWS_TEXT.available)).toBe(true);

    await inBrowser('manager-service-sheets', async (page) => {
      await startSignedIn(page, manager);

      // Act: the HES screen from the menu, on the first company (the active one by default)
      await openFromMenu(page, VIEWS_TEXT.serviceSheetsTitle);
      await settledConformity(page, VIEWS_TEXT.serviceSheetsTitle);

      // Assess: only that company's documents (the review tests add some there: compared by acquirer)
      const firstRows = await conformityRows(page);
      expect(firstRows.length).toBeGreaterThan(0);
      expect(new Set(firstRows.map((row) => row[2]))).toEqual(new Set([FIRST]));

      // Act: the header's company menu switches the active company
      await chooseCompanyInHeader(page, SECOND_COMPANY.name);

      // Assess: exactly the seeded HES of that company, as the screen shows them
      await expect.poll(() => conformityRows(page), WAIT).toEqual(allHes);
      await page.getByText(`que SAP registra para ${SECOND_COMPANY.name}`).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'service-sheets');

      // Act: filter by issuer RUC
      await page.getByRole('searchbox', { name: VIEWS_TEXT.issuerFilter }).fill(issuer);

      // Assess
      await expect.poll(() => conformityRows(page), WAIT).toEqual(issuerHes);

      // Act: the MIGO screen, the same shape, without the HES filters
      await openFromMenu(page, VIEWS_TEXT.materialDocsTitle);
      await settledConformity(page, VIEWS_TEXT.materialDocsTitle);

      // Assess
      await expect.poll(() => conformityRows(page), WAIT).toEqual(allMigo);
      expect(await page.getByRole('searchbox', { name: VIEWS_TEXT.issuerFilter }).inputValue()).toBe('');
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'material-docs');

      // Act: filter by PO responsible, chosen among the suggestions for a part of the name
      await page
        .getByRole('combobox', { name: VIEWS_TEXT.responsibleFilter })
        .fill(responsible.fullName.split(' ')[0]!);
      await page.getByRole('option', { name: new RegExp(escapeRegExp(responsible.fullName)) }).click();

      // Assess
      await expect.poll(() => conformityRows(page), WAIT).toEqual(responsibleMigo);
      expect(await page.getByRole('combobox', { name: VIEWS_TEXT.responsibleFilter }).inputValue()).toBe(
        responsible.fullName,
      );

      // Act: back to the HES, filtered by issuer again, and open the invoice that holds one
      await openFromMenu(page, VIEWS_TEXT.serviceSheetsTitle);
      await settledConformity(page, VIEWS_TEXT.serviceSheetsTitle);
      await page.getByRole('searchbox', { name: VIEWS_TEXT.issuerFilter }).fill(issuer);
      await expect.poll(() => conformityRows(page), WAIT).toEqual(issuerHes);
      await page.getByRole('link', { name: `Ver comprobante ${claimed![7]}` }).click();

      // Assess: the invoices screen, searching that invoice
      await page.waitForURL(
        (url) => url.pathname === '/invoices' && url.searchParams.get('search') === claimed![7],
        WAIT,
      );
    });
  });

  test("a manager sees its company's counts on the dashboard, for all time, for one month, and for its other company", async () => {
    // Prepare
    const { month, year, period, prefix } = busiestMonth(SECOND);
    const monthName = VIEWS_TEXT.months[month - 1]!;
    const monthText = `Periodo: ${monthName} ${year}`;
    const seedMonth = countsOf(
      world.invoices.filter((invoice) => invoice.client === SECOND && invoice.issuedAt.startsWith(prefix)),
    );
    const seedFirst = world.invoices.filter((invoice) => invoice.client === FIRST).length;

    await inBrowser('manager-dashboard', async (page) => {
      await startSignedIn(page, manager);

      // Act
      await openFromMenu(page, VIEWS_TEXT.dashboardTitle);
      await settledDashboard(page, VIEWS_TEXT.allPeriod);

      // Assess: the first company's counts for all time, as the API counts them
      const allTime = await shownAsCounted(page, FIRST);
      const statusTotal = allTime.pending + allTime.completed + allTime.accepted;
      expect(statusTotal + allTime.rejected + allTime.scheduled + allTime.paid).toBeGreaterThanOrEqual(seedFirst);
      for (const label of ['Debe revisar', 'Pagado', 'Servicios', 'Bienes']) {
        await page.getByRole('rowheader', { name: label }).first().waitFor();
      }
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'dashboard');

      // Act: one month of one year
      await chooseOption(page, VIEWS_TEXT.month, monthName);
      await chooseOption(page, VIEWS_TEXT.year, String(year));
      await settledDashboard(page, monthText);

      // Assess: that month's counts, different from all time
      const monthly = await shownAsCounted(page, FIRST, period);
      expect(monthly).not.toEqual(allTime);

      // Assess: the period is in the address, so a reload (or the link) shows that month again
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
        month: String(month),
        year: String(year),
      });
      await page.reload();
      await settledDashboard(page, monthText);
      await shownAsCounted(page, FIRST, period);
      await page.getByRole('button', { name: new RegExp(`^${VIEWS_TEXT.month}\\b.*${monthName}`) }).waitFor();

      // Act: the other company, from the header
      await chooseCompanyInHeader(page, SECOND_COMPANY.name);

      // Assess: the seed's counts of that company in that month
      await expect.poll(() => dashboardCounts(page), WAIT).toEqual(seedMonth);
      expect(await dashboardOf(SECOND, period)).toEqual(seedMonth);
      await page.getByTestId('dashboard-period').filter({ hasText: monthText }).waitFor();
    });
  });

  test('a dashboard link with a month or year that does not exist shows the whole period instead of failing', async () => {
    await inBrowser('manager-dashboard-bad-period', async (page) => {
      await startSignedIn(page, manager);

      // Act
      await page.goto(appUrl('/dashboard?month=13&year=abc'));

      // Assess: every month, as the API counts them, and an address without the bad values
      await settledDashboard(page, VIEWS_TEXT.allPeriod);
      await shownAsCounted(page, FIRST);
      await expect.poll(() => new URL(page.url()).search).toBe('');

      // Act: a month without a year
      await page.goto(appUrl('/dashboard?month=2'));

      // Assess: kept, and the dashboard asks for the year before showing a single month
      await settledDashboard(page, VIEWS_TEXT.allPeriod);
      await page.getByText('Elige mes y año para ver un solo mes.').waitFor();
      expect(new URL(page.url()).searchParams.get('month')).toBe('2');
    });
  });

  test('the dashboard is usable on a 375 px wide screen', async () => {
    await inBrowser('manager-dashboard-mobile', async (page) => {
      // Prepare
      await page.setViewportSize({ width: 375, height: 812 });
      await startSignedIn(page, manager);

      // Act: the menu opens from its toggle on a narrow screen
      await page.getByRole('button', { name: 'Abrir menú' }).click();
      await openFromMenu(page, VIEWS_TEXT.dashboardTitle);
      await settledDashboard(page, VIEWS_TEXT.allPeriod);

      // Assess
      await shownAsCounted(page, FIRST);
      expect(await scrollsSideways(page)).toBe(false);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'dashboard-mobile');
    });
  });
});
