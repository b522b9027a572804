import type { BrowserContext, Page } from 'playwright-core';
import { TEXT, signIn } from '../../tests/support/web.js';

/**
 * Core Web Vitals of one page load in Chromium, read in the page itself. An init script (plain JavaScript: it
 * runs in the page before the app's own scripts) records:
 *
 * - LCP: the last `largest-contentful-paint` entry (PerformanceObserver, buffered), with its element; and every
 *   candidate the browser reported before it (time, size, element), to tell what the largest paint was and when
 *   the larger ones came;
 * - CLS: the sum of every `layout-shift` entry without recent input over the whole load (at least the session-
 *   window value web-vitals reports, since it adds every window);
 * - FCP: the `first-contentful-paint` paint entry;
 * - long tasks (`longtask` entries), for the total blocking time;
 * - the rows: a MutationObserver notes when the number of rows of the invoices table (cells with
 *   `data-testid="invoice-number"`, one per row) last changed;
 * - interactions (INP, as web-vitals computes it): every `event` entry (Event Timing, durationThreshold 16 ms)
 *   and the `first-input` entry, grouped by their interactionId; an interaction lasts as long as its longest
 *   event, from the input to the next paint after its handlers, and INP is the longest interaction (with fewer
 *   than 50 interactions, web-vitals takes the longest). Each keeps the breakdown of its longest event.
 */

/** One `largest-contentful-paint` entry: a paint larger than every one before it. */
export interface LcpCandidate {
  /** When it was painted (ms from navigation start). */
  readonly startMs: number;
  /** Its visible area (CSS px²). */
  readonly size: number;
  /** Its element: tag, test id or id, and the start of its text. */
  readonly element: string;
}

export interface LoadVitals {
  readonly lcpMs: number;
  readonly lcpElement: string;
  /** Every LCP candidate of the load, in the order reported (the last one is the LCP). */
  readonly lcpCandidates: readonly LcpCandidate[];
  readonly cls: number;
  readonly fcpMs: number;
  /** When the table's row count last changed (ms from navigation start). */
  readonly rowsAtMs: number;
  readonly rows: number;
  /**
   * Total blocking time between FCP and `rowsAtMs`: for each long task, its part in that window beyond its first
   * 50 ms (Lighthouse's rule for tasks that straddle a bound).
   */
  readonly tbtMs: number;
  readonly longTasks: number;
}

/** One interaction of the page (its longest event), in ms. */
export interface Interaction {
  readonly name: string;
  readonly startMs: number;
  readonly durationMs: number;
  /** From the input to its first handler. */
  readonly inputDelayMs: number;
  /** The handlers themselves. */
  readonly processingMs: number;
  /** From the handlers' end to the next frame painted. */
  readonly presentationMs: number;
}

interface RecordedVitals {
  lcp: number;
  lcpElement: string;
  lcpCandidates: LcpCandidate[];
  cls: number;
  fcp: number | null;
  rows: number;
  rowsAt: number | null;
  longTasks: { start: number; duration: number }[];
  interactions: Record<string, Interaction>;
}

export const ROW_SELECTOR = '[data-testid="invoice-number"]';

const INIT_SCRIPT = `(() => {
  const state = { lcp: 0, lcpElement: '', lcpCandidates: [], cls: 0, fcp: null, rows: 0, rowsAt: null, longTasks: [], interactions: {} };
  Object.defineProperty(window, '__portalVitals', { value: state });
  const describe = (element) => {
    if (!element) return '';
    const id = element.getAttribute('data-testid') || element.id;
    const text = (element.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    return element.tagName.toLowerCase() + (id ? '#' + id : '') + (text ? ' "' + text + '"' : '');
  };
  const observe = (type, onEntry, options) => {
    try {
      new PerformanceObserver((list) => list.getEntries().forEach(onEntry)).observe({ type, buffered: true, ...options });
    } catch (error) {
      console.warn('PerformanceObserver ' + type + ': ' + error);
    }
  };
  observe('largest-contentful-paint', (entry) => {
    state.lcp = entry.startTime;
    state.lcpElement = describe(entry.element);
    state.lcpCandidates.push({ startMs: entry.startTime, size: entry.size, element: state.lcpElement });
  });
  observe('layout-shift', (entry) => {
    if (!entry.hadRecentInput) state.cls += entry.value;
  });
  observe('paint', (entry) => {
    if (entry.name === 'first-contentful-paint') state.fcp = entry.startTime;
  });
  observe('longtask', (entry) => state.longTasks.push({ start: entry.startTime, duration: entry.duration }));
  const interaction = (entry) => {
    if (!entry.interactionId) return;
    const known = state.interactions[entry.interactionId];
    if (known && known.durationMs >= entry.duration) return;
    state.interactions[entry.interactionId] = {
      name: entry.name,
      startMs: entry.startTime,
      durationMs: entry.duration,
      inputDelayMs: entry.processingStart - entry.startTime,
      processingMs: entry.processingEnd - entry.processingStart,
      presentationMs: Math.max(0, entry.startTime + entry.duration - entry.processingEnd),
    };
  };
  observe('event', interaction, { durationThreshold: 16 });
  observe('first-input', interaction);
  new MutationObserver(() => {
    const rows = document.querySelectorAll(${JSON.stringify(ROW_SELECTOR)}).length;
    if (rows !== state.rows) {
      state.rows = rows;
      state.rowsAt = performance.now();
    }
  }).observe(document, { childList: true, subtree: true });
})();`;

/** Installs the recorder in every page the context opens from now on. */
export async function recordVitals(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: INIT_SCRIPT });
}

/**
 * A warm session in `context`: `account` signs in with its password at the login of the site at `webUrl` (at full
 * speed, before anything is measured) and lands on its invoices' rows, as one who comes back to the portal; the
 * context's later pages open signed in.
 */
export async function warmSignIn(
  context: BrowserContext,
  webUrl: string,
  account: { readonly username: string; readonly password: string },
): Promise<void> {
  const login = await context.newPage();
  await login.goto(new URL('/login', webUrl).toString());
  await login.getByRole('heading', { name: TEXT.loginTitle }).waitFor();
  await signIn(login, account.username, account.password);
  await login.locator(ROW_SELECTOR).first().waitFor({ timeout: 60_000 });
  await login.close();
}

/** Lighthouse's blocking time of `tasks` within [from, to]. */
export function blockingTime(tasks: readonly { start: number; duration: number }[], from: number, to: number): number {
  let total = 0;
  for (const task of tasks) {
    const start = Math.max(task.start, from);
    const end = Math.min(task.start + task.duration, to);
    if (end - start < 50) continue;
    const blockingFrom = Math.max(start, task.start + 50);
    if (end > blockingFrom) total += end - blockingFrom;
  }
  return total;
}

/**
 * Waits until the invoices table of `page` (being loaded) has at least `minRows` rows and the page has settled
 * (no network for 500 ms, the row count unchanged for `quietMs`), then reads what the recorder saw.
 */
export async function readVitals(page: Page, minRows: number, quietMs = 1000): Promise<LoadVitals> {
  await page
    .locator(ROW_SELECTOR)
    .nth(minRows - 1)
    .waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle', { timeout: 60_000 });
  // Runs in the page (this project's Node code has no DOM types, hence globalThis).
  const read = () => page.evaluate(() => (globalThis as unknown as { __portalVitals: RecordedVitals }).__portalVitals);
  let state = await read();
  for (;;) {
    await page.waitForTimeout(quietMs);
    const next = await read();
    if (next.rows === state.rows && next.rowsAt === state.rowsAt) break;
    state = next;
  }
  state = await read();
  if (state.fcp === null || state.rowsAt === null) throw new Error('The page reported no first contentful paint');
  return {
    lcpMs: state.lcp,
    lcpElement: state.lcpElement,
    lcpCandidates: state.lcpCandidates,
    cls: state.cls,
    fcpMs: state.fcp,
    rowsAtMs: state.rowsAt,
    rows: state.rows,
    tbtMs: blockingTime(state.longTasks, state.fcp, state.rowsAt),
    longTasks: state.longTasks.length,
  };
}

/** The LCP candidates of a load, for a log line: `h1 "Mis comprobantes" 6,450 px² at 2,300 ms → …`. */
export function describeLcpCandidates(candidates: readonly LcpCandidate[]): string {
  const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  return candidates
    .map(
      (candidate) =>
        `${candidate.element || '(removed)'} ${number.format(candidate.size)} px² at ${number.format(candidate.startMs)} ms`,
    )
    .join(' → ');
}

/** Every interaction the recorder saw in `page` so far, in the order they started. */
export async function readInteractions(page: Page): Promise<Interaction[]> {
  const state = await page.evaluate(() => (globalThis as unknown as { __portalVitals: RecordedVitals }).__portalVitals);
  return Object.values(state.interactions).sort((a, b) => a.startMs - b.startMs);
}

/** The page's cumulative layout shift so far (every shift without recent input, from navigation on). */
export async function readLayoutShift(page: Page): Promise<number> {
  return page.evaluate(() => (globalThis as unknown as { __portalVitals: RecordedVitals }).__portalVitals.cls);
}

/** INP as web-vitals reports it for a page with fewer than 50 interactions: the longest one (0 with none). */
export function interactionToNextPaint(interactions: readonly Interaction[]): number {
  return interactions.reduce((longest, interaction) => Math.max(longest, interaction.durationMs), 0);
}
