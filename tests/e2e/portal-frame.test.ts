import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { demoUser } from '../support/stage.js';
import { TEXT, appUrl, inBrowser, invoicesTitleOf, settledInvoices, signIn, startSignedIn } from '../support/web.js';

// index.html's frame (web/frame/, docs/web-performance.md): what a phone shows before the app's code arrives, and
// the app taking its place; the invoices screen under the title of the browser's last user's audience (a supplier's
// «Mis comprobantes», staff's «Comprobantes recibidos»), never the other one.

const FRAME = '#portal-frame';
const DESCRIPTION = 'Comprobantes electrónicos registrados en el portal';

/** The longest count the title carries: a busy company's, known only as a bound. */
const LONG_COUNT = { count: 10_000, exact: false };
const LONG_COUNT_TEXT = '(más de 10,000)';

/** Answers the list's count as a busy company's, whatever the stage holds (the rest of the answer is the stage's). */
async function longCount(page: Page): Promise<void> {
  await page.route(/\/invoices\/count(\?|$)/, async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    await route.fulfill({ response: await route.fetch(), json: LONG_COUNT });
  });
}

/**
 * Holds the app's entry script until `release` is called: the page shows what index.html paints on its own, as on a
 * slow network before the code is in.
 */
async function holdAppCode(page: Page): Promise<() => void> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** Where the invoices screen's title and description are painted, by the frame (`inFrame`) or by the app. */
async function headerBoxes(page: Page, inFrame: boolean, title: string) {
  const scope = inFrame ? page.locator(FRAME) : page.locator('#root');
  const box = async (part: 'title' | 'text') => {
    const element =
      part === 'title' ? scope.getByRole('heading', { name: title, level: 1 }) : scope.getByText(DESCRIPTION).first();
    const found = await element.boundingBox();
    if (!found) throw new Error(`The ${part} is not painted ${inFrame ? 'in the frame' : 'by the app'}`);
    return found;
  };
  return { title: await box('title'), text: await box('text') };
}

describe("the portal's frame", () => {
  for (const [name, viewport, role] of [
    ['a phone', { width: 412, height: 823 }, 'SUPPLIER'],
    ['a desktop screen', { width: 1440, height: 900 }, 'SUPPLIER'],
    ['a phone', { width: 390, height: 844 }, 'MANAGER'],
    ['a desktop screen', { width: 1366, height: 768 }, 'MANAGER'],
  ] as const) {
    const title = invoicesTitleOf(role);
    const otherTitle = role === 'SUPPLIER' ? TEXT.staffInvoicesTitle : TEXT.invoicesTitle;

    test(`on ${name}, a signed-in ${role.toLowerCase()} sees the invoices screen's title («${title}») and description before the app's code, where the screen then paints them`, async () => {
      await inBrowser(
        `portal-frame-invoices-${role}`,
        async (page) => {
          // Prepare: signed in, the app has seen the user in this browser
          await startSignedIn(page, demoUser(role));
          await settledInvoices(page);
          await longCount(page);
          const release = await holdAppCode(page);

          // Act
          await page.goto(appUrl(role === 'SUPPLIER' ? '/invoices' : '/'), { waitUntil: 'commit' });

          // Assess: the frame alone, under the role's title and never the other, then the screen in its place
          const frame = page.locator(FRAME);
          await frame.getByRole('heading', { name: title, level: 1 }).waitFor();
          expect(await frame.getByRole('heading', { name: otherTitle }).count()).toBe(0);
          await frame.getByText(DESCRIPTION).waitFor();
          await frame.getByText('Portal de Proveedores').waitFor();
          expect(await frame.getByRole('status').filter({ visible: true }).textContent()).toBe(
            'Cargando comprobantes...',
          );
          const framed = await headerBoxes(page, true, title);
          expect(await page.locator('#root').innerHTML()).toBe('');

          release();
          await settledInvoices(page);
          await expect.poll(() => frame.count()).toBe(0);
          // However long the count, once it is in: it never wraps the title over the frame's description.
          await page.getByRole('heading', { level: 1 }).getByText(LONG_COUNT_TEXT).waitFor();
          const painted = await headerBoxes(page, false, title);
          expect(await page.getByRole('heading', { level: 1 }).innerText()).toMatch(new RegExp(`^${title}`));
          for (const part of ['title', 'text'] as const) {
            expect(Math.abs(painted[part].x - framed[part].x), part).toBeLessThanOrEqual(1);
            expect(Math.abs(painted[part].y - framed[part].y), part).toBeLessThanOrEqual(1);
          }
          // As many lines: the description wraps where the app's does.
          expect(Math.abs(painted.text.height - framed.text.height)).toBeLessThanOrEqual(1);
        },
        { viewport },
      );
    });
  }

  test('a visitor not signed in sees only the bar and a loading state, then the sign-in; a supplier without a tax id the refusal', async () => {
    const withoutTaxId = demoUser('SUPPLIER', { withoutTaxId: true });
    await inBrowser('portal-frame-signed-out', async (page) => {
      // Act
      const release = await holdAppCode(page);
      await page.goto(appUrl('/invoices'), { waitUntil: 'commit' });

      // Assess
      const frame = page.locator(FRAME);
      await frame.getByText('Portal de Proveedores').waitFor();
      expect(await frame.getByRole('status').filter({ visible: true }).textContent()).toBe('Cargando...');
      expect(await frame.getByRole('heading').filter({ visible: true }).count()).toBe(0);
      expect(await frame.getByText(DESCRIPTION).isVisible()).toBe(false);
      release();
      await page.getByText(TEXT.loginSubtitle).waitFor();
      expect(await frame.count()).toBe(0);

      // The guard decides, as before: the frame never stands in for the refusal.
      await signIn(page, withoutTaxId.username, withoutTaxId.password);
      await page.waitForURL((url) => url.pathname === '/supplier/forbidden');
      await page.goto(appUrl('/invoices'));
      await page.waitForURL((url) => url.pathname === '/supplier/forbidden');
      await page.getByRole('heading', { name: TEXT.forbiddenTitle }).waitFor();
      expect(await frame.count()).toBe(0);
    });
  });
});
