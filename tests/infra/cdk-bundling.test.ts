import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFunction } from '../../bench/lib/bundles.js';
import { REQUIRE_SHIM, functionEntries, type FunctionEntry } from '../../infra/lib/bundling.js';
import { PortalFunction, setLogRetention } from '../../infra/lib/constructs/portal-function.js';

/**
 * CDK's own bundling of a PortalFunction (NodejsFunction running esbuild at synth), for one function: the other
 * infra tests synthesize without bundling, and the budgets (bundle-budgets.test.ts) build every function through
 * esbuild's API with the same options. What this proves is that both roads give the same bundle, so that what the
 * budgets measure is what a deploy ships.
 */
describe("CDK's bundling of a portal function", () => {
  const fn = functionEntries().find((entry) => entry.name === 'getCurrentUser') as FunctionEntry;
  let outdir: string;
  let cdkBundle: string;
  let assetFiles: string[];
  let esbuildBundle: string;

  beforeAll(async () => {
    outdir = mkdtempSync(path.join(os.tmpdir(), 'portal-cdk-bundling-'));
    const app = new App({ outdir });
    const stack = new Stack(app, 'Bundling');
    setLogRetention(stack, 30);
    new PortalFunction(stack, 'Fn', { name: fn.name, entry: fn.entry, retain: false });
    app.synth();
    const asset = readdirSync(outdir).find((name) => name.startsWith('asset.'));
    if (!asset) throw new Error(`no asset in ${outdir}`);
    assetFiles = readdirSync(path.join(outdir, asset)).sort();
    cdkBundle = readFileSync(path.join(outdir, asset, 'index.mjs'), 'utf8');
    esbuildBundle = readFileSync((await bundleFunction(fn, path.join(outdir, 'esbuild'))).file, 'utf8');
  });

  afterAll(() => {
    if (outdir) rmSync(outdir, { recursive: true, force: true });
  });

  it('ships the ESM bundle with its source map and licences beside it, behind the require shim', () => {
    expect(assetFiles).toEqual(['index.mjs', 'index.mjs.LEGAL.txt', 'index.mjs.map']);
    expect(cdkBundle.startsWith(REQUIRE_SHIM)).toBe(true);
  });

  it('is the bundle the budgets measure, byte for byte', () => {
    expect(cdkBundle.length).toBe(esbuildBundle.length);
    expect(cdkBundle === esbuildBundle).toBe(true);
  });
});
