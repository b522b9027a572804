import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Where the screenshots of every screen live (committed, linked from the README). */
export const SCREENSHOTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots');

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

/**
 * Runs axe-core (WCAG 2.0/2.1 A and AA rules) on the page as it is now and returns the serious and
 * critical violations, each with the elements it found them on.
 */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  // Runs in the page: globalThis is the window there (the tests compile without the DOM library).
  // Colors are measured as painted: let fade-ins (Cloudscape's alerts, modals) finish first.
  await page.evaluate(async () => {
    const doc = (globalThis as unknown as { document: { getAnimations(): { finished: Promise<unknown> }[] } }).document;
    await Promise.all(doc.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
  });
  const loaded = await page.evaluate(() => typeof (globalThis as { axe?: unknown }).axe !== 'undefined');
  // Evaluated, not added as a script tag: the site's CSP refuses inline scripts, and a test must not weaken it.
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const page = globalThis as unknown as {
      axe: { run: (context: unknown, options: unknown) => Promise<any> };
      document: { querySelectorAll(selector: string): ArrayLike<{ getClientRects(): ArrayLike<unknown> }> };
    };
    // With a modal open, the page behind it is inert and dimmed by its backdrop (its colors measure
    // lower than they are): the modal is what the user can reach, and what is checked.
    const modals = Array.from(
      page.document.querySelectorAll('[role="dialog"], [role="alertdialog"], dialog[open]'),
    ).filter((element) => element.getClientRects().length > 0);
    const result = await page.axe.run(modals.length > 0 ? { include: modals } : page.document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return (result.violations as any[]).map((violation) => ({
      id: violation.id as string,
      impact: (violation.impact ?? null) as string | null,
      help: violation.help as string,
      targets: (violation.nodes as any[]).map((node) => String(node.target)),
    }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/**
 * Saves `docs/screenshots/<name>.png` of the page as it is now (viewport, not the full page), when the run documents
 * the screens (`npm run screenshots`: PORTAL_SCREENSHOTS=on, every file on the demo world, whose names the docs and
 * the web mock show). `npm test` leaves the committed screenshots alone.
 */
export async function documentScreen(page: Page, name: string): Promise<void> {
  if (process.env.PORTAL_SCREENSHOTS !== 'on') return;
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS_DIR, `${name}.png`) });
}
