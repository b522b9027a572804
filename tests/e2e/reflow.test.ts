import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { formatMoney } from '@portal/shared';
import { ADMIN_TEXT, settledUsers } from '../support/admin.js';
import type { BrowserOptions } from '../support/browser.js';
import { DETAIL_TEXT, detailPanel, invoiceToReview } from '../support/invoice-detail.js';
import { iconButtonNames } from '../support/keyboard.js';
import { VIEWS_TEXT, scrollsSideways, settledConformity, settledDashboard } from '../support/views.js';
import { appUrl, inBrowser } from '../support/web.js';
import { signedIn } from '../support/header.js';

/**
 * The main screens reflow (WCAG 1.4.10) and their icon-only buttons are named in Spanish (4.1.2).
 * Reflow is checked on a 320 px wide screen, and on a 1280 px wide window zoomed to 200 %: Chromium lays a page
 * zoomed to 200 % out in half the window's CSS pixels, each painted twice as large, which is a 640 px viewport at
 * two device pixels per CSS pixel (a second, independent way to the same layout as a user's Ctrl + +).
 */
const NARROW: BrowserOptions = { viewport: { width: 320, height: 800 } };
const ZOOMED: BrowserOptions = { viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 };

/** Words of Cloudscape's English defaults that a Spanish name never has. */
const ENGLISH =
  /\b(open|close|dismiss|menu|next|previous|page|settings|search|clear|remove|filter|sort|refresh|info|notifications|toggle|expand|collapse|show|hide|more|actions|edit|delete|calendar|choose|help|error|warning|loading)\b/i;

/** On screen and not cut off at either side: a user reads it without scrolling sideways. */
async function expectReadable(page: Page, target: Locator): Promise<void> {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  const width = page.viewportSize()!.width;
  expect(box, 'no se muestra').not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width + 0.5);
}

/** No icon-only button without a Spanish name on the screen as it is now. */
async function expectSpanishIconNames(page: Page, screen: string): Promise<void> {
  const names = await iconButtonNames(page);
  expect(names.length, `${screen}: botones de solo ícono`).toBeGreaterThan(0);
  expect(
    names.filter((name) => name.trim() === '' || ENGLISH.test(name)),
    `${screen}: ${names.join(' | ')}`,
  ).toEqual([]);
}

/** A manager's main screens: the list, an invoice's sidebar, the dashboard, the HES; `check` runs on each. */
async function managerScreens(page: Page, check: (screen: string) => Promise<void>): Promise<void> {
  const { number, invoice } = await invoiceToReview('SERVICE_SHEET');
  await signedIn(page, 'MANAGER');
  await check('comprobantes');

  await page.goto(appUrl(`/invoices/${invoice.supplierId}/${invoice.type}/${number}`));
  const panel = detailPanel(page, number);
  await panel.waitFor({ timeout: 30_000 });
  for (const content of [
    panel.getByText(number, { exact: true }).first(),
    panel.getByText(formatMoney(invoice.amount, invoice.currency), { exact: true }).first(),
    panel.getByText('Debe revisar', { exact: true }).first(),
    panel.getByRole('button', { name: DETAIL_TEXT.complete }),
    panel.getByRole('button', { name: DETAIL_TEXT.reject, exact: true }),
  ]) {
    await expectReadable(page, content);
  }
  await check('detalle del comprobante');

  await page.goto(appUrl('/dashboard'));
  await settledDashboard(page, VIEWS_TEXT.allPeriod);
  await expectReadable(page, page.getByTestId('status-count-pending'));
  await check('dashboard');

  await page.goto(appUrl('/service-sheets'));
  await settledConformity(page, VIEWS_TEXT.serviceSheetsTitle);
  await check('conformidades HES');
}

async function adminScreens(page: Page, check: (screen: string) => Promise<void>): Promise<void> {
  await signedIn(page, 'ADMIN');
  await page.goto(appUrl('/suppliers'));
  await page.getByRole('heading', { name: ADMIN_TEXT.suppliersTitle, level: 1 }).waitFor();
  await settledUsers(page);
  await expectReadable(page, page.getByRole('button', { name: ADMIN_TEXT.createSupplier }));
  await check('usuarios proveedores');
}

/**
 * The outermost elements that reach past the right edge of the viewport, outside any container that scrolls or
 * clips (a data table scrolls inside its own box, which WCAG 1.4.10 allows): what makes the page scroll sideways.
 */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Node = {
      tagName: string;
      className: unknown;
      parentElement: Node | null;
      getBoundingClientRect(): { right: number };
    };
    const doc = (
      globalThis as unknown as {
        document: { documentElement: { clientWidth: number }; querySelectorAll(selector: string): ArrayLike<Node> };
      }
    ).document;
    const width = doc.documentElement.clientWidth;
    const view = globalThis as unknown as { getComputedStyle(node: Node): { overflowX: string } };
    const wide = (node: Node) => node.getBoundingClientRect().right > width + 0.5;
    const clipped = (node: Node): boolean =>
      node.parentElement !== null &&
      (view.getComputedStyle(node.parentElement).overflowX !== 'visible' || clipped(node.parentElement));
    return Array.from(doc.querySelectorAll('body *'))
      .filter((node) => wide(node) && !(node.parentElement && wide(node.parentElement)) && !clipped(node))
      .map((node) => `${node.tagName.toLowerCase()}.${String(node.className)} → ${node.getBoundingClientRect().right}`);
  });
}

const noSidewaysScroll = (page: Page) => async (screen: string) => {
  const sideways = await scrollsSideways(page);
  expect(sideways, `${screen} se desplaza a los lados: ${sideways ? (await overflowing(page)).join('; ') : ''}`).toBe(
    false,
  );
};

describe('reflow and icon-only buttons', () => {
  for (const [name, options] of [
    ['a 320 px wide screen', NARROW],
    ['a 1280 px window at 200 % zoom', ZOOMED],
  ] as const) {
    test(`the main screens reflow on ${name}: no sideways scroll, the invoice's number, amount, status and actions in view`, async () => {
      await inBrowser(
        `reflow-manager-${options.viewport!.width}`,
        (page) => managerScreens(page, noSidewaysScroll(page)),
        options,
      );
      await inBrowser(
        `reflow-admin-${options.viewport!.width}`,
        (page) => adminScreens(page, noSidewaysScroll(page)),
        options,
      );
    }, 180_000);
  }

  test('every icon-only button of the main screens has a Spanish accessible name, wide and narrow', async () => {
    await inBrowser('icon-names-manager', (page) =>
      managerScreens(page, (screen) => expectSpanishIconNames(page, screen)),
    );
    await inBrowser('icon-names-admin', (page) => adminScreens(page, (screen) => expectSpanishIconNames(page, screen)));
    await inBrowser(
      'icon-names-manager-narrow',
      (page) => managerScreens(page, (screen) => expectSpanishIconNames(page, `${screen} (320 px)`)),
      NARROW,
    );
  }, 180_000);
});
