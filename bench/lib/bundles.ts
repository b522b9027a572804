import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { BUCKETS, QUEUES, RUNTIME_ENV, SAP_ENV } from '@portal/shared';
import { BUNDLE_OPTIONS, functionEntries, type FunctionEntry } from '../../infra/lib/bundling.js';
import { FUNCTION_TELEMETRY_ENV } from '../../infra/lib/telemetry.js';

const run = promisify(execFile);

export interface BuiltBundle extends FunctionEntry {
  readonly file: string;
  readonly rawBytes: number;
  /** gzip at zlib's default level (6). */
  readonly gzipBytes: number;
  /** esbuild's metafile of the build that made it (shared by the bundles of one bundleAll). */
  readonly metafile?: Metafile;
}

/** PortalFunction's esbuild options (infra/lib/bundling.ts) for the JS API, with a metafile of each build. */
function buildOptions(): BuildOptions {
  return {
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
    inject: [...BUNDLE_OPTIONS.inject],
    metafile: true,
    logLevel: 'silent',
  };
}

function measured(fn: FunctionEntry, file: string, metafile: Metafile | undefined): BuiltBundle {
  const code = readFileSync(file);
  return { ...fn, file, rawBytes: code.length, gzipBytes: gzipSync(code).length, metafile };
}

/** Bundles one function exactly as PortalFunction does (infra/lib/bundling.ts), into `outdir/<name>/index.mjs`. */
export async function bundleFunction(fn: FunctionEntry, outdir: string): Promise<BuiltBundle> {
  const file = path.join(outdir, fn.name, 'index.mjs');
  const result = await build({ ...buildOptions(), entryPoints: [fn.entry], outfile: file });
  return measured(fn, file, result.metafile);
}

/** The cold-import reference (reference-import.ts), bundled as a function is, into `outdir/reference/index.mjs`. */
export function bundleReference(outdir: string): Promise<BuiltBundle> {
  const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), 'reference-import.ts');
  return bundleFunction({ name: 'reference', kind: 'worker', entry }, outdir);
}

/**
 * Every function of the stacks, bundled into a temporary directory (removed by `dispose`). One esbuild build
 * with every entry point: each output is a file of its own (no code splitting), byte for byte what bundling
 * that entry alone makes, and the modules they share are parsed once (seconds instead of tens of seconds).
 */
export async function bundleAll(): Promise<{ bundles: BuiltBundle[]; reference: BuiltBundle; dispose(): void }> {
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'portal-bundles-'));
  const entries = functionEntries();
  const result = await build({
    ...buildOptions(),
    entryPoints: entries.map((fn) => ({ in: fn.entry, out: `${fn.name}/index` })),
    outdir,
    outExtension: { '.js': '.mjs' },
  });
  const bundles = entries.map((fn) => measured(fn, path.join(outdir, fn.name, 'index.mjs'), result.metafile));
  const reference = await bundleReference(outdir);
  return { bundles, reference, dispose: () => rmSync(outdir, { recursive: true, force: true }) };
}

/**
 * The inputs of one bundle by what they belong to (an npm package, or a directory of this repository), largest
 * first, in bytes of the output: where a bundle's size comes from.
 */
export function heaviestInputs(bundle: BuiltBundle, count = 8): { input: string; bytes: number }[] {
  const output = Object.entries(bundle.metafile?.outputs ?? {}).find(
    ([file]) => path.resolve(file) === path.resolve(bundle.file),
  )?.[1];
  const totals = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output?.inputs ?? {})) {
    // The innermost package: a copy nested under another package counts as itself.
    const pkg = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];
    const key = pkg ?? input.split('/').slice(0, 3).join('/');
    totals.set(key, (totals.get(key) ?? 0) + bytesInOutput);
  }
  return [...totals]
    .map(([input, bytes]) => ({ input, bytes }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, count);
}

/** What a function reads from its environment when its module loads, valued as in a deployed stage. */
const IMPORT_ENV: Readonly<Record<string, string>> = {
  AWS_REGION: 'sa-east-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  AWS_SESSION_TOKEN: 'bench',
  AWS_LAMBDA_FUNCTION_NAME: 'bench',
  // As PortalFunction sets them: the OpenTelemetry SDK and its OTLP exporter are built at load, as in Lambda.
  ...FUNCTION_TELEMETRY_ENV,
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
  // The SAP adapter's: the MIRO worker and the payment job build it at load.
  [SAP_ENV.baseUrl]: 'https://sap.example.com',
  [SAP_ENV.credentialsSecretArn]: 'arn:aws:secretsmanager:sa-east-1:123456789012:secret:portal-bench-sap',
  [SAP_ENV.companyCodes]: '{}',
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
