import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { signedIn } from '../support/header.js';
import { detailPanel, invoiceToReview } from '../support/invoice-detail.js';
import { VIEWS_TEXT, settledConformity, settledDashboard } from '../support/views.js';
import { appUrl, inBrowser } from '../support/web.js';

/** What a page's console said as an error, and every request of the page answered 404. */
function watch(page: Page): { readonly errors: string[]; readonly notFound: string[] } {
  const errors: string[] = [];
  const notFound: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('response', (response) => {
    if (response.status() === 404) notFound.push(`${response.request().method()} ${response.url()}`);
  });
  return { errors, notFound };
}

/** Lets the requests a screen sent after it painted (the favicon, a badge's count) come back. */
const settle = (page: Page) => page.waitForLoadState('networkidle');

describe('the browser console stays clean', () => {
  test('a supplier and a manager go through their screens and an invoice without a 404 or a console error', async () => {
    await inBrowser('console-supplier', async (page) => {
      const seen = watch(page);
      await signedIn(page, 'SUPPLIER');
      await settle(page);
      await page.goto(appUrl('/notifications'));
      await settle(page);
      expect(seen.notFound).toEqual([]);
      expect(seen.errors).toEqual([]);
    });
    await inBrowser('console-manager', async (page) => {
      const seen = watch(page);
      const { number, invoice } = await invoiceToReview('SERVICE_SHEET');
      await signedIn(page, 'MANAGER');
      await settle(page);
      await page.goto(appUrl(`/invoices/${invoice.supplierId}/${invoice.type}/${number}`));
      await detailPanel(page, number).waitFor({ timeout: 30_000 });
      await settle(page);
      await page.goto(appUrl('/dashboard'));
      await settledDashboard(page, VIEWS_TEXT.allPeriod);
      await page.goto(appUrl('/service-sheets'));
      await settledConformity(page, VIEWS_TEXT.serviceSheetsTitle);
      await settle(page);
      expect(seen.notFound).toEqual([]);
      expect(seen.errors).toEqual([]);
    });
  }, 180_000);
});
