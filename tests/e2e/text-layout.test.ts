import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_TEXT, settledUsers } from '../support/admin.js';
import type { BrowserOptions } from '../support/browser.js';
import { signedIn } from '../support/header.js';
import { VIEWS_TEXT, settledDashboard } from '../support/views.js';
import { appUrl, inBrowser } from '../support/web.js';

const WIDE: BrowserOptions = { viewport: { width: 1366, height: 768 } };
const PHONE: BrowserOptions = { viewport: { width: 390, height: 844 } };

/**
 * The words of table cells, a phone's invoice cards (Cloudscape's cards are the items of an ordered list) and buttons
 * that the browser laid out on more than one line ('Reasigna' / 'r'): each word of each text node is measured with a
 * Range, whose client rects are one per line it spans (or more, at one height, where an ellipsis cuts it).
 */
function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Rects = { length: number; [index: number]: { width: number; top: number } };
    type TextNode = { textContent: string | null };
    const doc = (
      globalThis as unknown as {
        document: {
          querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }>;
          createTreeWalker(root: unknown, what: number): { nextNode(): TextNode | null };
          createRange(): {
            setStart(node: TextNode, offset: number): void;
            setEnd(node: TextNode, offset: number): void;
            getClientRects(): Rects;
          };
        };
      }
    ).document;
    const broken: string[] = [];
    for (const root of Array.from(doc.querySelectorAll('td, th, ol > li, button'))) {
      const walker = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/\S+/g)) {
          const range = doc.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = Array.from({ length: range.getClientRects().length }, (_, i) => range.getClientRects()[i]!);
          // A word cut by an ellipsis is one line in fragments at one height; a broken word has fragments on two lines.
          const tops = new Set(lines.filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top / 4)));
          if (tops.size > 1) broken.push(match[0]);
        }
      }
    }
    return [...new Set(broken)];
  });
}

async function staffTables(page: Page, check: (screen: string) => Promise<void>): Promise<void> {
  await signedIn(page, 'ADMIN');
  for (const [path, title] of [
    ['/employees', ADMIN_TEXT.employeesTitle],
    ['/suppliers', ADMIN_TEXT.suppliersTitle],
  ] as const) {
    await page.goto(appUrl(path));
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await settledUsers(page);
    await check(title);
  }
}

async function managerTables(page: Page, check: (screen: string) => Promise<void>): Promise<void> {
  await signedIn(page, 'MANAGER');
  await check('comprobantes');
  await page.goto(appUrl('/dashboard'));
  await settledDashboard(page, VIEWS_TEXT.allPeriod);
  await check('dashboard');
}

describe('words wrap between words only', () => {
  for (const [name, options] of [
    ['1366 × 768', WIDE],
    ['a 390 px phone', PHONE],
  ] as const) {
    test(`no table cell, card or button breaks a word on ${name} («Reasignar», not «Reasigna r»)`, async () => {
      const check = (page: Page) => async (screen: string) => {
        expect(await brokenWords(page), `${screen} (${name})`).toEqual([]);
      };
      await inBrowser(`words-admin-${options.viewport!.width}`, (page) => staffTables(page, check(page)), options);
      await inBrowser(`words-manager-${options.viewport!.width}`, (page) => managerTables(page, check(page)), options);
    }, 180_000);
  }
});
