import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { QUEUES, ROUTES, SCHEDULES, type FunctionUses } from '@portal/shared';

/**
 * The declarations (RouteDef.uses, QueueDef.consumerUses, SCHEDULES' uses) against the code: the modules each
 * function's entry imports, as esbuild resolves them for its bundle. A function that reaches an adapter which reads
 * its environment at cold start must declare it (else it fails in AWS, where it is not given that environment), and
 * a declaration must not name what the function cannot reach (else it is granted more than it uses). Which queues
 * and which table writes a handler makes depend on its use case's code path: those are read from the code, and
 * docs/permissions.md says how.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const ADAPTER = (name: string) => `functions/src/adapters/${name}.ts`;
/** The wrapper's check of the caller against the disabled accounts: it reads the table on signed-in routes only. */
const ACCESS_CHECK = 'functions/src/http/access-check.ts';
const DYNAMODB_WRITES = /\b(PutCommand|UpdateCommand|DeleteCommand|TransactWriteCommand|BatchWriteCommand)\b/;

interface Declared {
  readonly name: string;
  readonly entry: string;
  readonly uses: FunctionUses;
  /** Signed-in API route: the wrapper reads the table for it. */
  readonly signedIn: boolean;
}

const declared: Declared[] = [
  ...ROUTES.map((route) => ({
    name: route.id,
    entry: `functions/src/handlers/${route.handler}.ts`,
    uses: route.uses,
    signedIn: route.auth === 'jwt',
  })),
  ...Object.values(QUEUES).map((def) => ({
    name: `worker ${def.id}`,
    entry: `functions/src/workers/${def.consumer}.ts`,
    uses: def.consumerUses,
    signedIn: false,
  })),
  ...Object.values(SCHEDULES).map((def) => ({
    name: `job ${def.id}`,
    entry: `functions/src/jobs/${def.handler}.ts`,
    uses: def.uses,
    signedIn: false,
  })),
];

let inputs: Metafile['inputs'];
const sources = new Map<string, string>();

beforeAll(async () => {
  const entries = [...new Set(declared.map((fn) => fn.entry))];
  // Packages (the AWS SDK, @portal/shared) stay out: only the functions' own modules matter here.
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: entries,
    bundle: true,
    write: false,
    metafile: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    outdir: 'out',
    logLevel: 'silent',
  });
  inputs = result.metafile.inputs;
  const { readFile } = await import('node:fs/promises');
  for (const file of Object.keys(inputs)) sources.set(file, await readFile(path.join(ROOT, file), 'utf8'));
}, 60_000);

/** The modules `entry` reaches through its (non-type) imports; `skip` is not followed. */
function reached(entry: string, skip: readonly string[] = []): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file) || skip.includes(file)) continue;
    seen.add(file);
    for (const imported of inputs[file]?.imports ?? []) if (!imported.external) stack.push(imported.path);
  }
  return seen;
}

describe('function declarations against the modules each function imports', () => {
  it('covers every route, consumer and job', () => {
    for (const fn of declared) expect(inputs[fn.entry], fn.entry).toBeDefined();
  });

  it('declares the table exactly when the function reaches it, and writes only from a module that writes', () => {
    for (const fn of declared) {
      const modules = reached(fn.entry, fn.signedIn ? [] : [ACCESS_CHECK]);
      const readsTable = fn.signedIn || modules.has(ADAPTER('dynamodb'));
      expect(fn.uses.table !== 'none', `${fn.name}: table`).toBe(readsTable);
      if (fn.uses.table === 'write') {
        const writers = [...modules].filter((file) => DYNAMODB_WRITES.test(sources.get(file) ?? ''));
        expect(writers, `${fn.name}: declares table writes`).not.toEqual([]);
      }
    }
  });

  it('declares the documents bucket, SAP and SUNAT exactly when the function builds their adapter', () => {
    for (const fn of declared) {
      const modules = reached(fn.entry);
      expect((fn.uses.documents ?? []).length > 0, `${fn.name}: documents`).toBe(modules.has(ADAPTER('s3')));
      expect(fn.uses.sap === true, `${fn.name}: sap`).toBe(modules.has(ADAPTER('sap')));
      expect(fn.uses.sunat === true, `${fn.name}: sunat`).toBe(modules.has(ADAPTER('sunat')));
    }
  });

  it('names queues, user-pool operations and e-mail only where the function can reach them', () => {
    for (const fn of declared) {
      const modules = reached(fn.entry);
      if ((fn.uses.queues ?? []).length > 0) expect(modules.has(ADAPTER('sqs')), `${fn.name}: queues`).toBe(true);
      if ((fn.uses.userPool ?? []).length > 0) {
        expect(modules.has(ADAPTER('cognito')), `${fn.name}: user pool`).toBe(true);
      }
      if (fn.uses.email) expect(modules.has(ADAPTER('email')), `${fn.name}: e-mail`).toBe(true);
    }
  });
});
