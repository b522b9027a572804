import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { BYTES_PER_KB, WEB_BUDGETS, kb } from './web-budgets.js';

/**
 * What the production build of the web app (web/dist, with Vite's manifest) makes the browser download, read
 * from `.vite/manifest.json` and `index.html`. Every size is gzip at zlib's default level (6), as a CDN
 * compressing on the fly sends it (CloudFront prefers brotli, which is smaller still).
 *
 * - **Initial JS**: every script that runs before the first route's screen renders: the entry chunk, the
 *   chunks the entry's own dynamic imports load (web/src/main.tsx imports the app and Amplify's vocabulary
 *   unconditionally at start; a conditional import added there is counted too, on the safe side, unless it is
 *   listed in LOADED_ONLY_WHEN_SET), the static imports of all of these, transitively, and whatever index.html
 *   loads or preloads as a script.
 * - **Initial CSS**: the CSS of those chunks and the stylesheets index.html links.
 * - **Lazy parts**: every other dynamically imported module: the route screens (modules under src/pages/, the
 *   React.lazy imports of web/src/routing/routes.ts) and any piece a screen or the shell loads on demand. A
 *   part's size is its own chunk plus the chunks only it needs (in its static import closure, not initial,
 *   and in no other part's closure); JS only, its CSS is not counted.
 * - **Shared**: the chunks several parts need besides the initial ones; the first part visited loads them.
 */

/**
 * Modules web/src/main.tsx imports at start only when a setting asks for them, never on a stage: they are lazy
 * parts, not initial JS, and no budget applies to them (their sizes are still reported). The mock provider
 * (docs/web-mock.md, msw's browser worker client) starts only when config.json says `mock: true`.
 */
export const LOADED_ONLY_WHEN_SET: readonly string[] = ['src/mock/browser.ts'];

interface ManifestChunk {
  readonly file: string;
  readonly src?: string;
  readonly isEntry?: boolean;
  readonly isDynamicEntry?: boolean;
  readonly imports?: readonly string[];
  readonly dynamicImports?: readonly string[];
  readonly css?: readonly string[];
}

type Manifest = Record<string, ManifestChunk>;

export interface SizedFile {
  /** Path inside the build directory, e.g. `assets/app-DbnkzFJR.js`. */
  readonly file: string;
  readonly bytes: number;
  readonly gzipBytes: number;
}

export interface FileGroup {
  readonly files: readonly SizedFile[];
  readonly bytes: number;
  readonly gzipBytes: number;
}

export interface LazyPart extends FileGroup {
  /** `invoices` for src/pages/invoices/invoices-page.tsx; a lazy piece's file (or, for an index, folder) name. */
  readonly name: string;
  readonly kind: 'route' | 'lazy';
  /** The module imported dynamically, e.g. `src/pages/invoices/invoices-page.tsx`. */
  readonly src: string;
  /** Its own chunk (the first of `files`). */
  readonly chunk: string;
}

export interface WebSizes {
  readonly initialJs: FileGroup;
  readonly initialCss: FileGroup;
  /** Route screens first, then other lazy parts, each by name. */
  readonly parts: readonly LazyPart[];
  readonly shared: FileGroup;
}

export const MANIFEST_PATH = '.vite/manifest.json';

function group(files: SizedFile[]): FileGroup {
  const sorted = [...files].sort((a, b) => b.gzipBytes - a.gzipBytes || a.file.localeCompare(b.file));
  return {
    files: sorted,
    bytes: sorted.reduce((sum, file) => sum + file.bytes, 0),
    gzipBytes: sorted.reduce((sum, file) => sum + file.gzipBytes, 0),
  };
}

/** The scripts and stylesheets index.html itself loads (`src`/`href` without the leading slash). */
function htmlAssets(html: string): { scripts: string[]; stylesheets: string[] } {
  const scripts: string[] = [];
  const stylesheets: string[] = [];
  for (const [tag] of html.matchAll(/<(script|link)\b[^>]*>/g)) {
    const url = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
    if (!url || /^[a-z]+:\/\//i.test(url)) continue;
    const file = url.replace(/^\//, '');
    if (tag.startsWith('<script') || /\brel="modulepreload"/.test(tag)) scripts.push(file);
    else if (/\brel="stylesheet"/.test(tag)) stylesheets.push(file);
  }
  return { scripts, stylesheets };
}

function partName(src: string): { name: string; kind: LazyPart['kind'] } {
  const file = path.basename(src).replace(/\.[cm]?[jt]sx?$/, '');
  // A package's component (node_modules/@cloudscape-design/components/flashbar/index.js) is named by its folder.
  const base = file === 'index' ? path.basename(path.dirname(src)) : file;
  return src.startsWith('src/pages/')
    ? { name: base.replace(/-page$/, ''), kind: 'route' }
    : { name: base, kind: 'lazy' };
}

/** Reads web/dist (or another build directory) and sizes what each moment of the app loads. */
export function measureWebSizes(distDir: string): WebSizes {
  const manifestFile = path.join(distDir, MANIFEST_PATH);
  if (!existsSync(manifestFile)) {
    throw new Error(`${manifestFile} is missing: web/vite.config.ts must keep build.manifest on`);
  }
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const sized = new Map<string, SizedFile>();
  const size = (file: string): SizedFile => {
    let entry = sized.get(file);
    if (!entry) {
      const content = readFileSync(path.join(distDir, file));
      entry = { file, bytes: content.length, gzipBytes: gzipSync(content).length };
      sized.set(file, entry);
    }
    return entry;
  };

  const chunk = (key: string): ManifestChunk => {
    const found = manifest[key];
    if (!found) throw new Error(`Vite manifest: no entry ${key}`);
    return found;
  };
  /** Manifest keys reachable from `roots` through static imports, the roots included. */
  const closure = (roots: readonly string[]): Set<string> => {
    const seen = new Set<string>();
    const pending = [...roots];
    while (pending.length > 0) {
      const key = pending.pop()!;
      if (seen.has(key)) continue;
      seen.add(key);
      pending.push(...(chunk(key).imports ?? []));
    }
    return seen;
  };

  const entries = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
  if (entries.length !== 1) throw new Error(`Vite manifest: expected one entry, found ${entries.join(', ') || 'none'}`);
  const entryKey = entries[0]!;
  const keyOfFile = new Map(Object.entries(manifest).map(([key, value]) => [value.file, key]));
  const html = htmlAssets(readFileSync(path.join(distDir, 'index.html'), 'utf8'));
  // A script of index.html that is no module of the build's graph (the frame's, web/build-plugins.ts staticFrame)
  // is sized as it is: it runs at start too.
  const htmlScriptKeys: string[] = [];
  const htmlScriptFiles: string[] = [];
  for (const file of html.scripts) {
    const key = keyOfFile.get(file);
    if (key) htmlScriptKeys.push(key);
    else if (/^assets\/frame-[\w-]+\.js$/.test(file) && existsSync(path.join(distDir, file)))
      htmlScriptFiles.push(file);
    else throw new Error(`index.html loads ${file}, which the Vite manifest does not list`);
  }

  const atStart = (chunk(entryKey).dynamicImports ?? []).filter((key) => !LOADED_ONLY_WHEN_SET.includes(key));
  const initial = closure([entryKey, ...atStart, ...htmlScriptKeys]);
  const initialJs = group([...[...initial].map((key) => chunk(key).file), ...htmlScriptFiles].map(size));
  const initialCssFiles = new Set(html.stylesheets);
  for (const key of initial) for (const css of chunk(key).css ?? []) initialCssFiles.add(css);
  const initialCss = group([...initialCssFiles].map(size));

  const lazyKeys = Object.keys(manifest).filter((key) => manifest[key]!.isDynamicEntry && !initial.has(key));
  const closures = new Map(lazyKeys.map((key) => [key, [...closure([key])].filter((dep) => !initial.has(dep))]));
  const owners = new Map<string, number>();
  for (const deps of closures.values()) for (const dep of deps) owners.set(dep, (owners.get(dep) ?? 0) + 1);

  const parts = lazyKeys.map((key): LazyPart => {
    const own = chunk(key);
    const src = own.src ?? key;
    const exclusive = closures.get(key)!.filter((dep) => dep !== key && owners.get(dep) === 1);
    const files = group(exclusive.map((dep) => size(chunk(dep).file)));
    const ownFile = size(own.file);
    return {
      ...partName(src),
      src,
      chunk: own.file,
      files: [ownFile, ...files.files],
      bytes: ownFile.bytes + files.bytes,
      gzipBytes: ownFile.gzipBytes + files.gzipBytes,
    };
  });
  parts.sort((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'route' ? -1 : 1));
  const names = new Set<string>();
  for (const part of parts) {
    if (names.has(part.name)) throw new Error(`Two lazy parts are both named ${part.name}: rename one module`);
    names.add(part.name);
  }
  const shared = group([...owners].filter(([, count]) => count > 1).map(([key]) => size(chunk(key).file)));
  return { initialJs, initialCss, parts, shared };
}

function describeFiles(files: readonly SizedFile[]): string {
  return files.map((file) => `${path.basename(file.file)} ${kb(file.gzipBytes)} KB`).join(', ');
}

/** What misses a size budget, one sentence each naming the chunks and their gzip sizes; empty when all fit. */
export function sizeBudgetFailures(sizes: WebSizes): string[] {
  const failures: string[] = [];
  const initialLimit = WEB_BUDGETS.initialJsKb * BYTES_PER_KB;
  if (sizes.initialJs.gzipBytes > initialLimit) {
    failures.push(
      `initial JS is ${kb(sizes.initialJs.gzipBytes)} KB gzip, over ${WEB_BUDGETS.initialJsKb} KB: ` +
        describeFiles(sizes.initialJs.files),
    );
  }
  for (const part of sizes.parts) {
    // A module loaded only under a setting (the mock provider) never reaches a stage's users: reported, not budgeted.
    if (LOADED_ONLY_WHEN_SET.includes(part.src)) continue;
    if (part.gzipBytes > WEB_BUDGETS.routeChunkKb * BYTES_PER_KB) {
      failures.push(
        `${part.kind} ${part.name} (${part.chunk}) is ${kb(part.gzipBytes)} KB gzip, over ${WEB_BUDGETS.routeChunkKb} KB: ` +
          describeFiles(part.files),
      );
    }
  }
  return failures;
}
