import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFunction, type BuiltBundle } from '../../bench/lib/bundles.js';

const run = promisify(execFile);

/**
 * The deployed functions run without NODE_OPTIONS=--enable-source-maps (a fifth of a cold import): their stack traces
 * still name the TypeScript file and line, read from the map beside the bundle when a stack is first read
 * (functions/src/bundle/source-mapped-stacks.mjs, injected into every bundle by infra/lib/bundling.ts).
 */
describe('stack traces of a bundled function', () => {
  let outdir: string;
  let bundle: BuiltBundle;
  const stackOf = async () => (await run(process.execPath, [bundle.file], { env: { PATH: process.env.PATH } })).stdout;

  beforeAll(async () => {
    outdir = mkdtempSync(path.join(os.tmpdir(), 'portal-stacks-'));
    bundle = await bundleFunction(
      { name: 'throws', kind: 'worker', entry: path.resolve('tests/fixtures/bundle/throws.ts') },
      outdir,
    );
  });

  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('names the TypeScript file, line and column of each frame in the bundle', async () => {
    const lines = (await stackOf()).split('\n');
    expect(lines[0]).toBe('Error: refused PO-1');
    expect(lines[1]).toMatch(/^ {4}at \w+ \(.*tests\/fixtures\/bundle\/throws\.ts:7:9\)$/);
    expect(lines[2]).toMatch(/^ {4}at .*tests\/fixtures\/bundle\/throws\.ts:11:3$/);
    // Node's own frames are left as they are.
    expect(lines.slice(3).every((line) => line.includes('node:internal'))).toBe(true);
  });

  it('leaves the bundle positions when the map cannot be read, and the function still runs', async () => {
    writeFileSync(`${bundle.file}.map`, '{ not a map');
    const lines = (await stackOf()).split('\n');
    expect(lines[0]).toBe('Error: refused PO-1');
    expect(lines[1]).toMatch(/\(file:\/\/.*\/throws\/index\.mjs:\d+:\d+\)$/);
  });
});
