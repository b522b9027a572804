// Bundles only (infra/lib/bundling.ts, esbuild's `inject`): stack traces name the TypeScript file and line of each
// frame in the bundle, read from the source map shipped beside it, when a stack is first read, not when the module
// loads. Node's --enable-source-maps parses the whole map at import, a fifth of a cold import (docs/benchmarks.md).
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

const bundle = import.meta.url;
/** The bundle's map, once read: null when it cannot be read (no map shipped), and the frames stay as they are. */
let map;

function bundleMap() {
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(bundle)}.map`, 'utf8')));
    } catch {
      map = null;
    }
  }
  return map;
}

/** esbuild names sources relative to the bundle's directory: from the repository's root instead. */
const sourcePath = (source) => source.replace(/^(?:\.\.\/)+/, '');

function frame(site) {
  const text = String(site);
  if (site.getFileName() !== bundle) return text;
  const line = site.getLineNumber();
  const column = site.getColumnNumber();
  const entry = line && column ? bundleMap()?.findEntry(line - 1, column - 1) : undefined;
  if (!entry?.originalSource) return text;
  const at = `${sourcePath(entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  return text.replace(`${bundle}:${line}:${column}`, at);
}

function header(error) {
  try {
    return Error.prototype.toString.call(error);
  } catch {
    return 'Error';
  }
}

// Node's own (which maps only under --enable-source-maps) is replaced: the bundle is the whole program.
Error.prepareStackTrace = (error, sites) => [header(error), ...sites.map((site) => `    at ${frame(site)}`)].join('\n');
