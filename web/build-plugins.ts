import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * Build-time trims of Cloudscape that keep code the portal never runs out of the first screen's JavaScript
 * (the size budgets of bench/lib/web-budgets.ts). Each one checks what it relies on and fails the build when
 * Cloudscape changes it: then adapt the plugin or drop it.
 */

const PACKAGE_DIR = path.dirname(createRequire(import.meta.url).resolve('@cloudscape-design/components/package.json'));

function sameFile(id: string, file: string): boolean {
  return path.normalize(id.split('?')[0]!) === file;
}

function requireSnippets(file: string, snippets: readonly string[], plugin: string): string {
  const source = readFileSync(file, 'utf8');
  const missing = snippets.filter((snippet) => !source.includes(snippet));
  if (missing.length > 0) {
    throw new Error(`${plugin}: ${file} no longer contains ${missing.join(' | ')}; adapt web/build-plugins.ts`);
  }
  return source;
}

/**
 * Cloudscape's AppLayout picks one of three layouts when it renders: classic (never with this package, which is
 * always visual refresh), the console toolbar (only when an AWS console sets Cloudscape's `appLayoutWidget` or
 * `appLayoutToolbar` global flag, which the portal never does) and visual refresh, the one the portal shows.
 * The choice is made at run time, so the other two (about 50 KB of gzip, with the drag-and-drop kit of the
 * toolbar's drawers) would ship with the shell; this keeps the layout that renders.
 */
export function appLayoutVisualRefreshOnly(): Plugin {
  const name = 'portal:app-layout-visual-refresh-only';
  const internal = path.join(PACKAGE_DIR, 'app-layout', 'internal.js');
  return {
    name,
    enforce: 'pre',
    buildStart() {
      requireSnippets(
        internal,
        [
          "import ClassicAppLayout from './classic';",
          "import { useAppLayoutFlagEnabled } from './utils/feature-flags';",
          "import RefreshedAppLayout from './visual-refresh';",
          "import ToolbarAppLayout from './visual-refresh-toolbar';",
          'export const AppLayoutInternal = React.forwardRef(',
        ],
        name,
      );
      requireSnippets(path.join(PACKAGE_DIR, 'internal', 'environment.js'), ['ALWAYS_VISUAL_REFRESH = true;'], name);
    },
    transform(_code, id) {
      if (!sameFile(id, internal)) return null;
      return {
        code: [
          "import React from 'react';",
          "import RefreshedAppLayout from './visual-refresh';",
          'export const AppLayoutInternal = React.forwardRef((props, ref) => React.createElement(RefreshedAppLayout, { ref, ...props }));',
        ].join('\n'),
        map: null,
      };
    },
  };
}

const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
const COMPONENT_IMPORT = /['"]@cloudscape-design\/components\/([\w./-]+)['"]/g;
const I18N_LOOKUP = /useInternalI18n\(\s*['"]([^'"]+)['"]\s*\)/g;

function resolveModule(from: string): string | null {
  for (const candidate of [from, `${from}.js`, path.join(from, 'index.js')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/**
 * The message namespaces (`useInternalI18n('<namespace>')`, the only way Cloudscape reads I18nProvider's
 * messages) of every Cloudscape module the app's sources can reach through static or dynamic imports: a superset
 * of what the bundle contains.
 */
export function cloudscapeNamespacesInUse(srcDir: string): Set<string> {
  const pending: string[] = [];
  for (const file of sourceFiles(srcDir)) {
    for (const [, subpath] of readFileSync(file, 'utf8').matchAll(COMPONENT_IMPORT)) {
      const resolved = resolveModule(path.join(PACKAGE_DIR, subpath!));
      if (resolved) pending.push(resolved);
    }
  }
  const seen = new Set<string>();
  const namespaces = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, namespace] of source.matchAll(I18N_LOOKUP)) namespaces.add(namespace!);
    for (const [, specifier] of source.matchAll(RELATIVE_IMPORT)) {
      const resolved = resolveModule(path.resolve(path.dirname(file), specifier!));
      if (resolved) pending.push(resolved);
    }
  }
  return namespaces;
}

/**
 * Cloudscape's Spanish messages (`i18n/messages/all.es`, which the app gives I18nProvider) cover every component
 * of the library; this keeps the namespaces of the components the app can use (about 5 KB of gzip less in the
 * first screen). A component the app starts using brings its messages back with it, since the namespaces are
 * found from web/src's imports at each build.
 */
export function cloudscapeMessagesInUse(srcDir: string): Plugin {
  const name = 'portal:cloudscape-messages-in-use';
  const messages = path.join(PACKAGE_DIR, 'i18n', 'messages', 'all.es.js');
  const prefix = 'export default ';
  return {
    name,
    enforce: 'pre',
    transform(code, id) {
      if (!sameFile(id, messages)) return null;
      if (!code.startsWith(prefix)) throw new Error(`${name}: ${messages} is no longer \`${prefix}{…}\``);
      const all = JSON.parse(code.slice(prefix.length).trim().replace(/;$/, '')) as Record<
        string,
        Record<string, Record<string, unknown>>
      >;
      const byLocale = all['cloudscape-design-components'];
      if (!byLocale) throw new Error(`${name}: ${messages} has no cloudscape-design-components messages`);
      const inUse = cloudscapeNamespacesInUse(srcDir);
      if (!inUse.has('app-layout')) throw new Error(`${name}: found no Cloudscape message namespace in use`);
      const kept = Object.fromEntries(
        Object.entries(byLocale).map(([locale, namespaces]) => [
          locale,
          Object.fromEntries(Object.entries(namespaces).filter(([namespace]) => inUse.has(namespace))),
        ]),
      );
      return { code: `${prefix}${JSON.stringify({ ...all, 'cloudscape-design-components': kept })};\n`, map: null };
    },
  };
}

/**
 * The Open Sans faces the first screens paint with, preloaded: body text; headings, buttons and links; the
 * placeholders of the filters' selects ('Todos los estados'), which are italic.
 */
const PRELOADED_FACES: readonly string[] = ['400-normal', '700-normal', '400-italic'];

const FONT_FACE = /@font-face\s*\{[^}]*\}/g;
const INLINE_WOFF2 = /url\(\s*["']?data:font\/woff2;base64,([A-Za-z0-9+/=]+)["']?\s*\)/;

/**
 * Cloudscape's global styles carry their eight Open Sans faces (300 to 800, normal and italic) inlined in the CSS
 * as base64: about 135 KB of gzip the browser must download before it paints anything, though a screen uses two
 * or three faces. This writes each face to a file of its own beside the CSS (a browser fetches only the faces a
 * page uses) and preloads from index.html the ones every screen paints with, so that they arrive with the
 * scripts and text never waits for them. Same faces, same font-face rules otherwise: the text looks the same.
 */
export function cloudscapeFontsAsFiles(): Plugin {
  const name = 'portal:cloudscape-fonts-as-files';
  return {
    name,
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const files = new Map<string, string>(); // base64 → emitted file name
      const preload = new Set<string>();
      for (const asset of Object.values(bundle)) {
        if (asset.type !== 'asset' || !asset.fileName.endsWith('.css') || typeof asset.source !== 'string') continue;
        const directory = path.posix.dirname(asset.fileName);
        asset.source = asset.source.replace(FONT_FACE, (rule) => {
          const data = INLINE_WOFF2.exec(rule)?.[1];
          if (!data) return rule;
          const family = /font-family:\s*["']?([^;"'}]+)/.exec(rule)?.[1]?.trim() ?? 'font';
          const face = `${/font-weight:\s*(\d+)/.exec(rule)?.[1] ?? '400'}-${/font-style:\s*(\w+)/.exec(rule)?.[1] ?? 'normal'}`;
          let fileName = files.get(data);
          if (!fileName) {
            const reference = this.emitFile({
              type: 'asset',
              name: `${family.toLowerCase().replace(/\s+/g, '-')}-${face}.woff2`,
              source: Buffer.from(data, 'base64'),
            });
            fileName = this.getFileName(reference);
            files.set(data, fileName);
          }
          if (PRELOADED_FACES.includes(face)) preload.add(fileName);
          // The CSS file keeps the name Vite gave it for its content with the fonts inlined: the same faces.
          return rule.replace(INLINE_WOFF2, `url(${path.posix.relative(directory, fileName)})`);
        });
      }
      if (files.size === 0) {
        throw new Error(`${name}: no inlined woff2 font in the CSS any more; adapt web/build-plugins.ts or drop it`);
      }
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset' || typeof html.source !== 'string' || !html.source.includes('</head>')) {
        throw new Error(`${name}: no index.html in the bundle to preload the fonts from`);
      }
      const links = [...preload]
        .map((file) => `  <link rel="preload" as="font" type="font/woff2" crossorigin href="/${file}">\n  `)
        .join('');
      html.source = html.source.replace('</head>', `${links}</head>`);
    },
  };
}

/** Module graph queries a chunking function may make (rolldown's ChunkingContext). */
interface ModuleGraph {
  getModuleInfo(
    id: string,
  ): { readonly importedIds: readonly string[]; readonly dynamicallyImportedIds: readonly string[] } | null;
}

function staticClosure(graph: ModuleGraph, roots: readonly string[], into = new Set<string>()): Set<string> {
  const pending = [...roots];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (into.has(id)) continue;
    into.add(id);
    pending.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return into;
}

/**
 * Fewer, larger chunks for the first screen (the phone; docs/web-performance.md). Split by Rolldown's
 * default rules, the invoices screen's first visit fetched about 70 JavaScript files of 0.1 to 100 KB, each a
 * request of its own (six at a time over HTTP/1.1, a round trip each on a phone's network). Two groups:
 *
 * - `start`: what the app runs before the first screen renders: the modules web/src/main.tsx imports dynamically
 *   (the app, the route table, the session, the first screen's data) and everything they import statically,
 *   except what the entry itself imports statically (it stays in the entry, which must stay small: config.json's
 *   request goes out once it runs), the modules `skip` names (loaded only under a setting: the mock provider) and
 *   the modules `apart` matches (Amplify: its umbrella modules re-export every sign-in flow, whose code must stay
 *   with the sign-in screen; Rolldown's own rules place it);
 * - `screen-kit`: what the first screen (`firstScreen`) imports besides that and its own folder: Cloudscape's
 *   table, modals and the shared components, which most other screens use too; the screen's own chunk stays its
 *   own (the route budget). What the sign-in screen (`signIn`, the first screen of a visitor not signed in)
 *   imports is left out, so that it never loads the table's code; those modules keep Rolldown's chunks.
 *
 * The members are computed once, at the first module asked about (one `vite build` is one chunking pass).
 * The groups of higher priority (React, the contract) keep their modules. Returns each group's `name` function.
 */
export function firstScreenChunks(
  srcDir: string,
  options: { firstScreen: string; signIn: string; skip: readonly string[]; apart: RegExp },
) {
  const main = path.join(srcDir, 'main.tsx');
  const screen = path.join(srcDir, options.firstScreen);
  const signIn = path.join(srcDir, options.signIn);
  const skipped = new Set(options.skip.map((file) => path.join(srcDir, file)));
  let groups: Map<string, string> | null = null;
  const build = (graph: ModuleGraph) => {
    const entry = graph.getModuleInfo(main);
    if (!entry || !graph.getModuleInfo(screen) || !graph.getModuleInfo(signIn)) {
      throw new Error(
        `firstScreenChunks: ${main}, ${screen} or ${signIn} is not in the graph; adapt web/build-plugins.ts`,
      );
    }
    const entryOwn = staticClosure(graph, [main]);
    const atStart = staticClosure(
      graph,
      entry.dynamicallyImportedIds.filter((imported) => !skipped.has(imported)),
    );
    const signInOwn = staticClosure(graph, [signIn]);
    const screenDir = path.dirname(screen) + path.sep;
    const result = new Map<string, string>();
    for (const id of atStart) if (!entryOwn.has(id) && !options.apart.test(id)) result.set(id, 'start');
    for (const id of staticClosure(graph, [screen])) {
      if (entryOwn.has(id) || atStart.has(id) || signInOwn.has(id) || id.startsWith(screenDir)) continue;
      if (options.apart.test(id)) continue;
      result.set(id, 'screen-kit');
    }
    return result;
  };
  const member =
    (name: string) =>
    (id: string, graph: ModuleGraph): string | null => {
      groups ??= build(graph);
      return groups.get(id) === name ? name : null;
    };
  return { start: member('start'), screenKit: member('screen-kit') };
}

/** The frame's own files (web/frame/): its stylesheet and the script that picks what it shows. */
const FRAME_FILES = { css: 'frame.css', js: 'frame.js' } as const;
/** The Open Sans faces the frame paints with (its product name and title; its description and loading state). */
const FRAME_FACES: readonly string[] = ['700-normal', '400-normal'];
const FRAME_MARKUP = /<div id="portal-frame"[\s\S]*?<!-- \/portal-frame -->\n?/;
const STYLESHEET_LINK = /[ \t]*<link rel="stylesheet" crossorigin href="\/assets\/[^"]+\.css">\n?/;

/**
 * The portal's frame, painted from index.html before any JavaScript arrives (the phone; docs/web-
 * performance.md): index.html holds its markup (`<div id="portal-frame">`, a top bar with the product's name, the
 * invoices screen's title and description, a loading state), `frameDir` its stylesheet and its script. In the build:
 *
 * - the stylesheet and the script become hashed assets (cached for good like the others), the stylesheet with the
 *   `@font-face` rules of the faces it paints with (the files cloudscapeFontsAsFiles wrote, which index.html
 *   preloads: the frame's text looks as the app's), both linked first in the head with the preloads of those two
 *   faces, before config.json and the entry, so that they take the first connections (the script marks the page
 *   before its body renders, so the frame never shows one thing and then another; no inline code, so the site's
 *   Content-Security-Policy stays as it is);
 * - the app's stylesheet (105 KB of gzip) moves from the head to the body, after the frame and before the app's
 *   root: Chromium renders what comes before a stylesheet of the body without waiting for it, and the app, whose
 *   scripts wait for every stylesheet before they run, renders nothing before it arrives, as before.
 *
 * In development the head links the frame's files as they are (the fonts then come with the app's styles).
 */
export function staticFrame(frameDir: string): Plugin {
  const name = 'portal:static-frame';
  const read = (file: string) => readFileSync(path.join(frameDir, file), 'utf8');
  const links = (css: string, js: string) =>
    `  <link rel="stylesheet" href="${css}">\n    <script src="${js}"></script>\n  </head>`;
  return {
    name,
    enforce: 'post',
    transformIndexHtml: {
      order: 'pre',
      handler(html, context) {
        if (!FRAME_MARKUP.test(html)) throw new Error(`${name}: index.html has no <div id="portal-frame">`);
        if (!context.server) return html;
        const root = `/${path.basename(frameDir)}`;
        return html.replace('</head>', links(`${root}/${FRAME_FILES.css}`, `${root}/${FRAME_FILES.js}`));
      },
    },
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset' || typeof html.source !== 'string') {
        throw new Error(`${name}: no index.html in the bundle`);
      }
      const fontFiles = FRAME_FACES.map((face) => {
        const file = Object.keys(bundle).find((fileName) => fileName.includes(`/open-sans-${face}-`));
        if (!file) throw new Error(`${name}: no Open Sans ${face} file (cloudscapeFontsAsFiles must run first)`);
        return file;
      });
      // As Cloudscape's rules for the same faces (no font-display: the text waits for its face, briefly).
      const fonts = FRAME_FACES.map((face, index) => {
        const [weight, style] = face.split('-');
        return `@font-face{font-family:"Open Sans";font-weight:${weight};font-style:${style};src:url(${path.posix.basename(fontFiles[index]!)})format("woff2")}`;
      });
      const emit = (file: string, source: string) =>
        `/${this.getFileName(this.emitFile({ type: 'asset', name: file, source }))}`;
      const css = emit(FRAME_FILES.css, `${fonts.join('\n')}\n${read(FRAME_FILES.css)}`);
      const js = emit(FRAME_FILES.js, read(FRAME_FILES.js));
      let source = html.source;
      const stylesheet = STYLESHEET_LINK.exec(source)?.[0];
      const frame = FRAME_MARKUP.exec(source)?.[0];
      if (!stylesheet || !frame || !source.includes('</title>')) {
        throw new Error(`${name}: index.html has no app stylesheet, frame or title to rearrange`);
      }
      // First in the head, so that they take the first of the six connections HTTP/1.1 allows (config.json, the
      // entry and zod come right after): the frame's stylesheet and script, and the faces it paints with.
      const preloads = fontFiles.map((file) => {
        const link = new RegExp(`[ \\t]*<link rel="preload" as="font"[^>]*href="/${file}">\\n?`).exec(source)?.[0];
        if (!link) throw new Error(`${name}: index.html does not preload ${file} (cloudscapeFontsAsFiles)`);
        source = source.replace(link, '');
        return link.trim();
      });
      const first = [`<link rel="stylesheet" href="${css}">`, `<script src="${js}"></script>`, ...preloads];
      source = source
        .replace(stylesheet, '')
        .replace('</title>\n', `</title>\n${first.map((tag) => `    ${tag}\n`).join('')}`);
      source = source.replace(frame, `${frame}    ${stylesheet.trim()}\n`);
      html.source = source;
    },
  };
}
