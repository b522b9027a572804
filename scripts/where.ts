/**
 * `npm run where -- <route>`: where a route's code, its data access, its stand-ins and its tests are.
 *
 * The route is named by its manifest id (approveInvoice), or by a piece of its method and path
 * ("POST /invoices", "approve"). Everything printed is found, not listed by hand: the route's declaration in
 * shared/src/routes, its handler module, the use cases, repositories and adapters it imports (following plain
 * imports), the local stand-ins and simulators its `uses` needs, and the test files that call it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { routes } from '@portal/shared';
import type { FunctionUses } from '@portal/shared';

const ROOT = path.resolve(import.meta.dirname, '..');
const relative = (file: string) => path.relative(ROOT, file);

type Route = (typeof routes)[keyof typeof routes];

function filesUnder(dir: string, keep: (file: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !file.includes(`${path.sep}node_modules${path.sep}`) && keep(file));
}

function find(query: string): Route[] {
  const all = Object.values(routes) as Route[];
  const exact = all.filter((route) => route.id === query);
  if (exact.length > 0) return exact;
  const wanted = query.toLowerCase();
  return all.filter((route) => `${route.method} ${route.path} ${route.id}`.toLowerCase().includes(wanted));
}

/** The file and line of shared/src/routes that declares the route. */
function declaration(route: Route): string {
  for (const file of filesUnder(path.join(ROOT, 'shared/src/routes'), (name) => name.endsWith('.ts'))) {
    const lines = readFileSync(file, 'utf8').split('\n');
    const index = lines.findIndex((line) => line.includes(`id: '${route.id}'`));
    if (index >= 0) return `${relative(file)}:${index + 1}`;
  }
  return '(no encontrada)';
}

/** A relative import resolved to its .ts/.tsx file, or null for a package. */
function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/** Every functions/src module the handler reaches through relative imports, in the order found. */
function reachedFrom(entry: string): string[] {
  const seen = new Set<string>([entry]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const ref of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      const target = resolveImport(file, ref.fileName);
      if (target && target.includes(`${path.sep}functions${path.sep}src${path.sep}`) && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return [...seen].map(relative);
}

/** The local stage's modules that play each AWS service or outside party a route uses. */
const STAND_INS: Record<string, readonly string[]> = {
  table: ['local/stand-ins/dynamodb.ts'],
  documents: ['local/stand-ins/s3.ts'],
  queues: ['local/stand-ins/sqs.ts', 'local/runtime/workers.ts'],
  userPool: ['local/stand-ins/cognito'],
  email: ['local/stand-ins/mailbox.ts'],
  sap: ['local/simulators/sap'],
  sunat: ['local/simulators/sunat'],
};

function standIns(uses: FunctionUses): string[] {
  const needed = Object.entries(uses)
    .filter(([, value]) => value !== undefined && value !== false && !(Array.isArray(value) && value.length === 0))
    .map(([key]) => key);
  const named = needed.flatMap((key) => STAND_INS[key] ?? []);
  // A path this table names that the tree no longer has is said, so the table is mended rather than trusted.
  return named.map((name) => {
    const hits = [name, `${name}.ts`].filter((candidate) => existsSync(path.join(ROOT, candidate)));
    return hits.length > 0 ? hits[0]! : `${name} (no existe: actualice STAND_INS en scripts/where.ts)`;
  });
}

let testFiles: { file: string; text: string }[] | null = null;

function testsOf(route: Route): string[] {
  testFiles ??= ['tests', 'functions/src', 'web/src', 'shared/src']
    .flatMap((dir) => filesUnder(path.join(ROOT, dir), (file) => /\.test\.tsx?$/.test(file)))
    .map((file) => ({ file: relative(file), text: readFileSync(file, 'utf8') }));
  const needle = new RegExp(`routes\\.${route.id}\\b|['"\`]${route.id}['"\`]`);
  return testFiles
    .filter(({ text }) => needle.test(text))
    .map(({ file }) => file)
    .sort();
}

function describe(route: Route): string {
  const handler = path.join(ROOT, 'functions/src/handlers', `${route.handler}.ts`);
  const reached = existsSync(handler) ? reachedFrom(handler) : [];
  const layer = (folder: string) => reached.filter((file) => file.startsWith(`functions/src/${folder}/`));
  const section = (title: string, files: string[]) =>
    `  ${title}:\n${files.length > 0 ? files.map((file) => `    ${file}`).join('\n') : '    —'}`;
  return [
    `${route.method} ${route.path}  (${route.id}; ${route.roles.join(', ') || 'público'})`,
    section('declarada en', [declaration(route)]),
    section('handler', [relative(handler)]),
    section('casos de uso', layer('use-cases')),
    section('repositorios (acceso a DynamoDB)', layer('repositories')),
    section('adaptadores (AWS y terceros)', layer('adapters')),
    section('sustitutos locales', standIns(route.uses)),
    section('pruebas', testsOf(route)),
  ].join('\n');
}

/** The answer for a query, or null when no route of the manifest matches it. */
export function locate(query: string): string | null {
  const found = find(query);
  return found.length === 0 ? null : found.map(describe).join('\n\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const query = process.argv.slice(2).join(' ').trim();
  if (!query) {
    console.error('Uso: npm run where -- <id de la ruta | método y ruta>, por ejemplo npm run where -- approveInvoice');
    process.exit(2);
  }
  const answer = locate(query);
  if (answer === null) {
    console.error(`Ninguna ruta del manifiesto coincide con «${query}».`);
    process.exit(1);
  }
  console.log(answer);
}
