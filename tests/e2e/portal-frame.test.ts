import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { demoUser } from '../support/stage.js';
import { TEXT, appUrl, inBrowser, openLogin, settledInvoices, signIn } from '../support/web.js';

// index.html's frame (web/frame/, docs/web-performance.md): what a phone shows before the app's code arrives, and
// the app taking its place.

const FRAME = '#portal-frame';
const DESCRIPTION = 'Comprobantes electrónicos registrados en el portal';

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
async function headerBoxes(page: Page, inFrame: boolean) {
  const scope = inFrame ? page.locator(FRAME) : page.locator('#root');
  const box = async (part: 'title' | 'text') => {
    const element =
      part === 'title'
        ? scope.getByRole('heading', { name: TEXT.invoicesTitle, level: 1 })
        : scope.getByText(DESCRIPTION).first();
    const found = await element.boundingBox();
    if (!found) throw new Error(`The ${part} is not painted ${inFrame ? 'in the frame' : 'by the app'}`);
    return found;
  };
  return { title: await box('title'), text: await box('text') };
}

describe("the portal's frame (issue 25)", () => {
  for (const [name, viewport] of [
    ['a phone', { width: 412, height: 823 }],
    ['a desktop screen', { width: 1440, height: 900 }],
  ] as const) {
    test(`on ${name}, a signed-in supplier sees the invoices screen's title and description before the app's code, where the screen then paints them`, async () => {
      // Prepare
      const supplier = demoUser('SUPPLIER');
      await inBrowser(
        'portal-frame-invoices',
        async (page) => {
          await openLogin(page);
          await signIn(page, supplier.username, supplier.password);
          await settledInvoices(page);
          const release = await holdAppCode(page);

          // Act
          await page.goto(appUrl('/invoices'), { waitUntil: 'commit' });

          // Assess: the frame alone, then the screen in its place
          const frame = page.locator(FRAME);
          await frame.getByRole('heading', { name: TEXT.invoicesTitle, level: 1 }).waitFor();
          await frame.getByText(DESCRIPTION).waitFor();
          await frame.getByText('Portal de Proveedores').waitFor();
          expect(await frame.getByRole('status').filter({ visible: true }).textContent()).toBe(
            'Cargando comprobantes...',
          );
          const framed = await headerBoxes(page, true);
          expect(await page.locator('#root').innerHTML()).toBe('');

          release();
          await settledInvoices(page);
          await expect.poll(() => frame.count()).toBe(0);
          const painted = await headerBoxes(page, false);
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
