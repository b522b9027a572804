/**
 * The web app's budgets, in one place: the size limits are checked by `npm test`
 * (tests/infra/web-budgets.test.ts) and reported with the same targets by `npm run bench` (bench/suites/web.ts);
 * the vitals are checked by `npm run bench -- --check` only, since they are timings.
 *
 * Sizes are gzip at zlib's default level (6) of the production build (web/dist), in KB of 1,024 bytes like the
 * other suites' (Vite's own build log prints kB of 1,000).
 */
export const WEB_BUDGETS = {
  /** Every script the browser runs before the first route renders (see bench/lib/web-sizes.ts). */
  initialJsKb: 320,
  /** A lazily loaded part (a route's screen, or a piece loaded on demand): its chunk plus the chunks only it imports. */
  routeChunkKb: 100,
  /** Largest Contentful Paint of the invoices screen, fresh load with a warm session. */
  lcpMs: 1200,
  /** Cumulative Layout Shift over that load. */
  cls: 0.05,
} as const;

/**
 * The vitals are measured on the invoices screen of a supplier with this many invoices (the "50 rows"),
 * its 'Filas por página' preference set to 50 (bench/suites/web.ts): the screen shows all of them on one page.
 * At least 50.
 */
export const VITALS_INVOICES = 50;

export const BYTES_PER_KB = 1024;

export function kb(bytes: number): number {
  return Math.round((bytes / BYTES_PER_KB) * 100) / 100;
}
