import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { QUEUES, ROUTE_NOT_FOUND, ROUTES, SCHEDULES } from '@portal/shared';

/**
 * How every Lambda function of the product is bundled: one definition read by PortalFunction (CDK's
 * NodejsFunction, at synth) and by the bundle budgets (the test and `npm run bench`), so what is measured is
 * what is deployed.
 */

const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** ESM bundles have no `require`; some dependencies (parts of the AWS SDK) still call it for Node built-ins. */
export const REQUIRE_SHIM =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

/**
 * Modules replaced in the bundles:
 * - the SDK's default credential chain (SSO, shared ini files, processes, web identity, IMDS…: ~130 KB of nested
 *   clients and XML protocols, a fifth of a large bundle and of its cold import), for code that cannot run in Lambda:
 *   Lambda always hands the function's role credentials over as environment variables, which the replacement reads;
 * - the S3 client, one copy: @aws-sdk/s3-presigned-post pins the client-s3 of its own release exactly, which npm
 *   keeps nested beside ours (a second client-s3 of ~75 KB, its schemas and errors, in every function that takes
 *   uploads). The presigner only reads the client's config and resolves PutObject's endpoint with it, the same in
 *   both releases of the one monorepo; it is given ours.
 * The local stage runs the handlers unbundled, with the real chain (and the nested copy).
 */
export const BUNDLE_ALIASES: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': path.join(ROOT_DIR, 'functions/src/bundle/credentials-from-env.mjs'),
  '@aws-sdk/client-s3': path.join(ROOT_DIR, 'node_modules/@aws-sdk/client-s3/dist-es/index.js'),
};

/** The esbuild options both bundlers use (CDK passes the same through NodejsFunction's props and arguments). */
export const BUNDLE_OPTIONS = {
  format: 'esm',
  platform: 'node',
  target: 'node24',
  // Prefer ESM entry points of dependencies so tree shaking works.
  mainFields: ['module', 'main'],
  banner: REQUIRE_SHIM,
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  // Licences go to a file beside the bundle instead of its tail.
  legalComments: 'external',
  aliases: BUNDLE_ALIASES,
  // Stack traces read the map when a stack is first read (source-mapped-stacks.mjs), not Node's
  // --enable-source-maps, which parses it at every cold start.
  inject: [path.join(ROOT_DIR, 'functions/src/bundle/source-mapped-stacks.mjs')],
} as const;

/** NodejsFunction's `esbuildArgs` for the options its props do not name. */
export function esbuildArgs(): Record<string, string | boolean> {
  const args: Record<string, string | boolean> = { '--legal-comments': BUNDLE_OPTIONS.legalComments };
  for (const [module, replacement] of Object.entries(BUNDLE_ALIASES)) args[`--alias:${module}`] = replacement;
  return args;
}

export type FunctionKind = 'api' | 'worker';

export interface FunctionEntry {
  /** The route id, `<queue>Worker`, `<schedule>Job` or `preTokenGeneration` (as the alarms name them). */
  readonly name: string;
  readonly kind: FunctionKind;
  readonly entry: string;
}

/** Every function the stacks deploy, with its entry module: API handlers ($default's too), queue consumers, jobs, the trigger. */
export function functionEntries(): FunctionEntry[] {
  const functionsDir = path.join(ROOT_DIR, 'functions/src');
  const entries: FunctionEntry[] = [];
  const seen = new Set<string>();
  for (const route of ROUTES) {
    // Routes sharing a handler module share a bundle.
    if (seen.has(route.handler)) continue;
    seen.add(route.handler);
    entries.push({ name: route.id, kind: 'api', entry: path.join(functionsDir, 'handlers', `${route.handler}.ts`) });
  }
  // The $default route's function: not a manifest route, deployed beside them.
  entries.push({
    name: ROUTE_NOT_FOUND.id,
    kind: 'api',
    entry: path.join(functionsDir, 'handlers', `${ROUTE_NOT_FOUND.handler}.ts`),
  });
  for (const [key, def] of Object.entries(QUEUES)) {
    if (def.consumer) {
      entries.push({
        name: `${key}Worker`,
        kind: 'worker',
        entry: path.join(functionsDir, 'workers', `${def.consumer}.ts`),
      });
    }
  }
  for (const [key, def] of Object.entries(SCHEDULES)) {
    entries.push({ name: `${key}Job`, kind: 'worker', entry: path.join(functionsDir, 'jobs', `${def.handler}.ts`) });
  }
  entries.push({
    name: 'preTokenGeneration',
    kind: 'worker',
    entry: path.join(functionsDir, 'triggers/pre-token-generation.ts'),
  });
  // SES's receipt function: deployed only by a stage with intakeMail, always bundled here.
  entries.push({ name: 'sesReceipt', kind: 'worker', entry: path.join(functionsDir, 'triggers/ses-receipt.ts') });
  return entries;
}

/**
 * Bundle budgets (what a user feels, not the bytes): at most 1 MB (1,024 KB of 1,024 bytes) of
 * bundle, which Lambda downloads and Node parses at every cold start, and a median cold import of at most 100 ms,
 * the module's load with its clients and OpenTelemetry set up, for every function. Gzip is reported, not budgeted.
 * The milliseconds are those of the reference machine (IMPORT_REFERENCE_MS): `npm run bench` scales what it measures.
 */
export const BUNDLE_BUDGETS: Readonly<Record<FunctionKind, { rawKb: number; importMs: number }>> = {
  api: { rawKb: 1024, importMs: 100 },
  worker: { rawKb: 1024, importMs: 100 },
};

/**
 * The import of the DynamoDB client alone, bundled as a function is (bench/lib/reference-import.ts), on the machine
 * the import budgets were met on (2026-11-27: healthcheck's 372 KB in 57.8 ms, under --enable-source-maps as the bench
 * then imported). The same 2-core machine type imports the same bundles up to twice as slowly on another day, so a
 * budget in plain milliseconds would pass or fail with the machine: the bench measures this reference beside the
 * functions, round by round, and scales each import by it. 31 ms: on 2026-11-29 the reference imported in 0.64 of
 * healthcheck's time (79 and 124 ms, both with source maps), and without source maps in 0.84 of its time with them
 * (64.9 and 77.5 ms); 57.8 × 0.64 × 0.84.
 */
export const IMPORT_REFERENCE_MS = 31;

/**
 * The functions allowed more, each with its reason. The exports worker (docs/adr/0032-list-exports.md) carries
 * exceljs's streaming XLSX writer and the zip writer under it (archiver: ~300 KB, already imported alone, without
 * exceljs's readers); its cold start precedes a file that takes seconds to minutes, which no one waits on a screen.
 * The inbound-mail worker (docs/adr/0035-mail-intake.md) carries mailparser's charset decoders (iconv-lite and
 * encoding-japanese, ~650 KB): a supplier's mail client may write its e-mail in any charset; no one waits on its cold
 * start either (the answer arrives by e-mail). The intake-batches worker (docs/adr/0033-zip-intake.md) carries the zip
 * reader beside the whole intake of 'Cargar XML' (the UBL reader, the checks, the notices): its cold start (105 ms
 * median on the benchmark machine, 2026-11-27) precedes a batch of up to 500 documents that takes tens of seconds,
 * whose progress the screen shows; the API call that queued it answered at once (202).
 */
export const BUNDLE_BUDGET_EXCEPTIONS: Readonly<Record<string, { rawKb: number; importMs: number; reason: string }>> = {
  exportsWorker: { rawKb: 1280, importMs: 150, reason: "exceljs's streaming XLSX writer and its zip writer" },
  inboundMailWorker: {
    rawKb: 2304,
    importMs: 200,
    reason: "mailparser's charset decoders (iconv-lite, encoding-japanese): e-mail arrives in any charset",
  },
  intakeBatchesWorker: {
    rawKb: 1024,
    importMs: 150,
    reason: 'the zip reader (yauzl) with the whole intake and the UBL reader: one start per zip of up to 500 documents',
  },
};

/** The budget of one function: its exception, else its kind's. */
export function budgetOf(fn: { readonly name: string; readonly kind: FunctionKind }): {
  rawKb: number;
  importMs: number;
} {
  return BUNDLE_BUDGET_EXCEPTIONS[fn.name] ?? BUNDLE_BUDGETS[fn.kind];
}
