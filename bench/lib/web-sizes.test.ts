import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { blockingTime } from './web-vitals.js';
import { MANIFEST_PATH, measureWebSizes, sizeBudgetFailures } from './web-sizes.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'portal-web-sizes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A build: each file holds `bytes` random bytes (so gzip cannot shrink them). */
function write(file: string, bytes: number): number {
  const content = randomBytes(bytes);
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), content);
  return gzipSync(content).length;
}

const gz = {
  entry: write('assets/index.js', 1000),
  vendor: write('assets/vendor.js', 2000),
  preloaded: write('assets/preloaded.js', 300),
  app: write('assets/app.js', 1500),
  appShared: write('assets/app-shared.js', 400),
  vocabulary: write('assets/vocabulary.js', 200),
  invoices: write('assets/invoices-page.js', 800),
  invoicesOnly: write('assets/invoices-only.js', 150_000),
  login: write('assets/login-page.js', 600),
  shared: write('assets/table.js', 700),
  panel: write('assets/panel.js', 100),
  css: write('assets/index.css', 500),
  appCss: write('assets/app.css', 250),
  pageCss: write('assets/invoices.css', 90),
};
writeFileSync(
  path.join(dir, 'index.html'),
  '<script type="module" crossorigin src="/assets/index.js"></script>' +
    '<link rel="modulepreload" crossorigin href="/assets/preloaded.js">' +
    '<link rel="stylesheet" crossorigin href="/assets/index.css">',
);
mkdirSync(path.join(dir, '.vite'));
writeFileSync(
  path.join(dir, MANIFEST_PATH),
  JSON.stringify({
    'index.html': {
      file: 'assets/index.js',
      isEntry: true,
      imports: ['_vendor.js'],
      dynamicImports: ['src/app.tsx', 'src/i18n/vocabulary.ts'],
      css: ['assets/index.css'],
    },
    '_vendor.js': { file: 'assets/vendor.js' },
    '_preloaded.js': { file: 'assets/preloaded.js' },
    '_app-shared.js': { file: 'assets/app-shared.js' },
    'src/app.tsx': {
      file: 'assets/app.js',
      isDynamicEntry: true,
      imports: ['_vendor.js', '_app-shared.js', 'index.html'],
      dynamicImports: ['src/pages/invoices/invoices-page.tsx', 'src/pages/login/login-page.tsx'],
      css: ['assets/app.css'],
    },
    'src/i18n/vocabulary.ts': { file: 'assets/vocabulary.js', isDynamicEntry: true },
    'src/pages/invoices/invoices-page.tsx': {
      file: 'assets/invoices-page.js',
      isDynamicEntry: true,
      imports: ['_vendor.js', '_app-shared.js', '_table.js', '_invoices-only.js', 'src/app.tsx'],
      dynamicImports: ['node_modules/panel/index.js'],
      css: ['assets/invoices.css'],
    },
    '_invoices-only.js': { file: 'assets/invoices-only.js' },
    'src/pages/login/login-page.tsx': {
      file: 'assets/login-page.js',
      isDynamicEntry: true,
      imports: ['_table.js', 'src/app.tsx'],
    },
    '_table.js': { file: 'assets/table.js' },
    'node_modules/panel/index.js': { file: 'assets/panel.js', isDynamicEntry: true, imports: ['_table.js'] },
  }),
);

describe('measureWebSizes', () => {
  const sizes = measureWebSizes(dir);

  it('counts the entry, its static imports, its start-up dynamic imports and what index.html preloads', () => {
    expect(sizes.initialJs.files.map((file) => file.file).sort()).toEqual(
      [
        'assets/app-shared.js',
        'assets/app.js',
        'assets/index.js',
        'assets/preloaded.js',
        'assets/vendor.js',
        'assets/vocabulary.js',
      ].sort(),
    );
    expect(sizes.initialJs.gzipBytes).toBe(gz.entry + gz.vendor + gz.preloaded + gz.app + gz.appShared + gz.vocabulary);
    expect(sizes.initialCss.gzipBytes).toBe(gz.css + gz.appCss);
  });

  it('sizes each lazy part with the chunks only it needs; shared chunks apart', () => {
    const byName = Object.fromEntries(sizes.parts.map((part) => [part.name, part]));
    expect(sizes.parts.map((part) => `${part.kind}:${part.name}`)).toEqual([
      'route:invoices',
      'route:login',
      'lazy:panel',
    ]);
    expect(byName.invoices!.gzipBytes).toBe(gz.invoices + gz.invoicesOnly);
    expect(byName.invoices!.chunk).toBe('assets/invoices-page.js');
    expect(byName.login!.gzipBytes).toBe(gz.login);
    expect(byName.panel!.gzipBytes).toBe(gz.panel);
    expect(sizes.shared.files.map((file) => file.file)).toEqual(['assets/table.js']);
  });

  it('names the part over its budget, with its chunks and their sizes', () => {
    const failures = sizeBudgetFailures(sizes);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/^route invoices \(assets\/invoices-page\.js\) is [\d.]+ KB gzip, over 100 KB: /);
    expect(failures[0]).toContain('invoices-only.js');
  });
});

describe('blockingTime', () => {
  it("adds each long task's time beyond 50 ms within the window", () => {
    const tasks = [
      { start: 0, duration: 120 }, // straddles the start: blocks from its 50th ms to its end, 70
      { start: 200, duration: 40 }, // short
      { start: 300, duration: 90 }, // 40
      { start: 950, duration: 200 }, // straddles the end: 50 inside, not beyond the first 50
    ];
    expect(blockingTime(tasks, 20, 1000)).toBe(70 + 40);
  });
});
