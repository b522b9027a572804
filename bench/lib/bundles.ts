import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { BUCKETS, QUEUES, RUNTIME_ENV } from '@portal/shared';
import { BUNDLE_OPTIONS, functionEntries, type FunctionEntry } from '../../infra/lib/bundling.js';

const run = promisify(execFile);

export interface BuiltBundle extends FunctionEntry {
  readonly file: string;
  readonly rawBytes: number;
  /** gzip at zlib's default level (6). */
  readonly gzipBytes: number;
}

/** Bundles one function exactly as PortalFunction does (infra/lib/bundling.ts), into `outdir/<name>/index.mjs`. */
export async function bundleFunction(fn: FunctionEntry, outdir: string): Promise<BuiltBundle> {
  const file = path.join(outdir, fn.name, 'index.mjs');
  await build({
    entryPoints: [fn.entry],
    outfile: file,
    bundle: true,
    format: BUNDLE_OPTIONS.format,
    platform: BUNDLE_OPTIONS.platform,
    target: BUNDLE_OPTIONS.target,
    mainFields: [...BUNDLE_OPTIONS.mainFields],
    banner: { js: BUNDLE_OPTIONS.banner },
    minify: BUNDLE_OPTIONS.minify,
    sourcemap: BUNDLE_OPTIONS.sourcemap,
    sourcesContent: BUNDLE_OPTIONS.sourcesContent,
    legalComments: BUNDLE_OPTIONS.legalComments,
    alias: { ...BUNDLE_OPTIONS.aliases },
    logLevel: 'silent',
  });
  const code = readFileSync(file);
  return { ...fn, file, rawBytes: code.length, gzipBytes: gzipSync(code).length };
}

/** Every function of the stacks, bundled into a temporary directory (removed by `dispose`). */
export async function bundleAll(): Promise<{ bundles: BuiltBundle[]; dispose(): void }> {
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'portal-bundles-'));
  const bundles: BuiltBundle[] = [];
  const entries = functionEntries();
  // A few at a time: esbuild is parallel inside already.
  for (let index = 0; index < entries.length; index += 4) {
    bundles.push(...(await Promise.all(entries.slice(index, index + 4).map((fn) => bundleFunction(fn, outdir)))));
  }
  return { bundles, dispose: () => rmSync(outdir, { recursive: true, force: true }) };
}

/** What a function reads from its environment when its module loads, valued as in a deployed stage. */
const IMPORT_ENV: Readonly<Record<string, string>> = {
  AWS_REGION: 'sa-east-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  AWS_SESSION_TOKEN: 'bench',
  AWS_LAMBDA_FUNCTION_NAME: 'bench',
  // As NodejsFunction sets it for bundles with source maps.
  NODE_OPTIONS: '--enable-source-maps',
  POWERTOOLS_METRICS_NAMESPACE: 'PortalProveedores',
  [RUNTIME_ENV.stage]: 'bench',
  [RUNTIME_ENV.tableName]: 'portal-bench',
  [RUNTIME_ENV.webOrigin]: 'https://proveedores.example.com',
  [RUNTIME_ENV.adminGroupName]: 'portal-admins',
  [RUNTIME_ENV.userPoolId]: 'sa-east-1_bench',
  [RUNTIME_ENV.userPoolClientId]: 'bench',
  [RUNTIME_ENV.originVerifyToken]: 'bench',
  [RUNTIME_ENV.emailSender]: 'Portal <no-responder@example.com>',
  [RUNTIME_ENV.emailConfigurationSet]: 'bench',
  [BUCKETS.documents.env]: 'portal-bench-documents',
  ...Object.fromEntries(
    Object.values(QUEUES).map((def) => [def.env, `https://sqs.sa-east-1.amazonaws.com/123456789012/${def.id}`]),
  ),
};

const IMPORT_PROBE = `
const started = process.hrtime.bigint();
await import(process.argv[1]);
process.stdout.write(String(Number(process.hrtime.bigint() - started) / 1e6));
`;

/**
 * Milliseconds a fresh Node process takes to import the bundle (module evaluation included: clients built at
 * load time count), with the environment a deployed function has.
 */
export async function coldImportMs(file: string): Promise<number> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', IMPORT_PROBE, file], {
    env: { PATH: process.env.PATH ?? '', ...IMPORT_ENV },
    cwd: path.dirname(file),
  });
  return Number(stdout);
}
