import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { WEB_BUDGETS } from '../../bench/lib/web-budgets.js';
import { measureWebSizes, sizeBudgetFailures, type WebSizes } from '../../bench/lib/web-sizes.js';
import { ensureWebBuild } from '../../local/runtime/web-build.js';

/**
 * The size budgets on the production build of the web app (the same build the local stage serves and
 * CDK uploads; built here when web/ or shared/ changed). What counts as initial JS and as a route's chunk is
 * defined in bench/lib/web-sizes.ts; `npm run bench` reports the same figures against the same limits.
 */
describe('web app size budgets', () => {
  let sizes: WebSizes;
  let dist: string;

  beforeAll(async () => {
    dist = await ensureWebBuild((line) => console.log(line));
    sizes = measureWebSizes(dist);
  });

  it('finds the entry, the screens of the route table and their chunks', () => {
    expect(sizes.initialJs.files.length).toBeGreaterThan(1);
    expect(sizes.initialCss.gzipBytes).toBeGreaterThan(0);
    const routes = sizes.parts.filter((part) => part.kind === 'route').map((part) => part.name);
    expect(routes).toEqual(expect.arrayContaining(['login', 'invoices', 'dashboard', 'suppliers', 'notifications']));
  });

  it('loads the mock provider only when config.json asks for it: a lazy part, none of its chunks at start', () => {
    const mock = sizes.parts.find((part) => part.src === 'src/mock/browser.ts');
    expect(mock, 'the mock provider in the build').toBeDefined();
    const initial = new Set(sizes.initialJs.files.map((file) => file.file));
    expect(mock!.files.filter((file) => initial.has(file.file))).toEqual([]);
  });

  it(`loads at most ${WEB_BUDGETS.initialJsKb} KB of gzip JavaScript before the first screen renders`, () => {
    expect(sizeBudgetFailures(sizes).filter((failure) => failure.startsWith('initial JS'))).toEqual([]);
  });

  it(`keeps every route's chunk (with the chunks only it needs) within ${WEB_BUDGETS.routeChunkKb} KB of gzip`, () => {
    expect(sizeBudgetFailures(sizes).filter((failure) => !failure.startsWith('initial JS'))).toEqual([]);
  });

  it('keeps the fonts out of the CSS the first paint waits for, and preloads the faces the screens use', () => {
    const css = readdirSync(path.join(dist, 'assets')).filter((file) => file.endsWith('.css'));
    for (const file of css) {
      expect(readFileSync(path.join(dist, 'assets', file), 'utf8'), file).not.toMatch(/data:font\//);
    }
    const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
    const preloaded = [
      ...html.matchAll(/<link rel="preload" as="font" type="font\/woff2" crossorigin href="\/([^"]+)">/g),
    ].map((match) => match[1]!);
    expect(preloaded.map((file) => /open-sans-(\d+-\w+)-/.exec(file)?.[1]).sort()).toEqual([
      '400-italic',
      '400-normal',
      '700-normal',
    ]);
    for (const file of preloaded) expect(existsSync(path.join(dist, file)), file).toBe(true);
  });
});
