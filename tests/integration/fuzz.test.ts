import { describe, expect, it } from 'vitest';
import {
  API_SECURITY_HEADERS,
  ERROR_CODES,
  HEADERS,
  ROUTES,
  formatErrorMessage,
  type ErrorCode,
  type Level,
  type RouteDef,
} from '@portal/shared';
import { CLIENTS, buildWorld } from '../support/tenant.js';
import { idTokenOf } from '../support/api.js';
import { demoUser, stage } from '../support/stage.js';

/*
 * Malformed requests across every route of the manifest, with valid tokens of every role: whatever arrives,
 * the API answers a 2xx or a 4xx in the documented error body with a catalogue code and its Spanish message,
 * never a 5xx and never a 401 (which would mean the request proved nothing).
 *
 * The generator is a seeded PRNG (mulberry32), printed at the start; FUZZ_SEED=<n> replays a run and
 * FUZZ_REQUESTS=<n> changes how many requests are sent. State shared with the other tests is safe: a write
 * route only ever gets a body its schema refuses, and path parameters that name nothing that exists.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261125) >>> 0;
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3000);
const CONCURRENCY = 4;

type Role = Exclude<Level, 'UNKNOWN'>;
const ROLES: readonly Role[] = ['SUPPLIER', 'MANAGER', 'ADMIN'];

function mulberry32(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Generator {
  readonly random: () => number;
  constructor(seed: number) {
    this.random = mulberry32(seed);
  }
  int(max: number): number {
    return Math.floor(this.random() * max);
  }
  pick<T>(values: readonly T[]): T {
    return values[this.int(values.length)]!;
  }
  chance(probability: number): boolean {
    return this.random() < probability;
  }
  text(length: number, alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[this.int(alphabet.length)];
    return out;
  }
}

/** Strange strings: empty, blanks, escapes, unicode oddities, numbers in disguise, very long. */
function oddString(g: Generator): string {
  return g.pick<() => string>([
    () => '',
    () => ' ',
    () => '\t\n',
    () => '\u0000',
    () => '\u202e\u0645\u0631\u062d\u0628\u0627',
    () => '\uFEFFF001-1',
    () => 'e\u0301'.repeat(50),
    () => '😀'.repeat(g.int(300) + 1),
    () => '\uD800',
    () => 'Ω≈ç√∫˜µ≤≥÷',
    () => '-1',
    () => 'NaN',
    () => 'Infinity',
    () => '1e309',
    () => '-0',
    () => '0x1F',
    () => 'null',
    () => 'undefined',
    () => 'true',
    () => '[]',
    () => '{}',
    () => "' OR '1'='1",
    () => '<script>alert(1)</script>',
    () => '../../etc/passwd',
    () => '%zz',
    () => '%E0%A4%A',
    () => '%',
    () => 'F001-00000001',
    () => '20100070970',
    () => 'FACTURA',
    () => '2026-02-30',
    () => '9999-12-31',
    () => g.text(g.int(40) + 1),
    () => g.text(g.pick([1_000, 10_000, 70_000, 300_000])),
    () => g.text(g.int(20), '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'),
  ])();
}

/** A JSON value of the wrong kind, or a right kind with an absurd value. */
function oddValue(g: Generator, depth = 0): unknown {
  return g.pick<() => unknown>([
    () => oddString(g),
    () => null,
    () => true,
    () => 0,
    () => -1,
    () => -0.001,
    () => 1e308,
    () => -1e308,
    () => Number('999999999999999.99'),
    () => 10_000_000_000,
    () => 0.001,
    () => 12.345,
    () => Number.MAX_SAFE_INTEGER + 2,
    () => [],
    () => Array.from({ length: g.pick([3, 1_000, 20_000]) }, () => 'x'),
    () => (depth < 3 ? Array.from({ length: g.int(4) + 1 }, () => oddValue(g, depth + 1)) : 'x'),
    () => ({}),
    () => (depth < 3 ? { [oddString(g).slice(0, 30)]: oddValue(g, depth + 1) } : 1),
    () => ({ __proto__: { admin: true }, constructor: { prototype: {} } }),
  ])();
}

/** The field names of an object schema (through optional and default wrappers); [] for other schemas. */
function fieldsOf(schema: unknown): string[] {
  let current = schema as { _zod?: { def: Record<string, unknown> } } | undefined;
  for (let i = 0; i < 5 && current?._zod; i++) {
    const def = current._zod.def;
    if (def.type === 'object') return Object.keys(def.shape as object);
    current = (def.innerType ?? def.in) as typeof current;
  }
  return [];
}

/** Raw body texts no JSON parser accepts, or JSON that nests absurdly deep. */
function oddBodyText(g: Generator): string {
  return g.pick<() => string>([
    () => '{',
    () => '{"a":',
    () => "{'a': 1}",
    () => '{"amount": NaN}',
    () => '{"a": 1,}',
    () => 'nul',
    () => '\u0000\u0001\u0002',
    () => g.text(g.int(200) + 1),
    () => '['.repeat(50_000) + ']'.repeat(50_000),
    () => '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000),
    () => '"' + 'x'.repeat(1_000_000) + '"',
    () => '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>',
  ])();
}

interface FuzzRequest {
  route: RouteDef;
  role: Role | null;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  description: string;
}

const SEEDED = buildWorld().invoices;

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/octet-stream',
  'application/json; charset=utf-16',
  '*/*',
  'a'.repeat(500),
];

/** encodeURIComponent, but a lone surrogate (which it refuses) is sent as its raw UTF-8 bytes, invalid on purpose. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

function pathValue(g: Generator, name: string): string {
  // Raw: inserted as is (malformed escapes, separators); otherwise percent-encoded like a client would.
  return g.pick<() => string>([
    () => g.pick(['%zz', '%E0%A4%A', '%', '%%', '%C0%AF', '%FF%FE', '%ED%A0%80', 'a%2Fb', '%00', '..', '.']),
    () => encode(oddString(g).slice(0, g.pick([50, 3_000]))),
    () =>
      encode(
        name === 'supplierId'
          ? g.text(11, '0123456789')
          : name === 'invoiceType'
            ? g.pick(['FACTURA', 'BOLETA', 'factura', 'RECIBO', 'NOTA_DE_CREDITO', 'X'])
            : name === 'invoiceId'
              ? `${g.pick(['F', 'B', 'E', 'Z'])}${g.text(3, '0123456789')}-${g.text(g.int(9) + 1, '0123456789')}`
              : `${g.text(8)}-${g.text(4)}`,
      ),
  ])();
}

function queryString(g: Generator, route: RouteDef): string {
  const names = [...fieldsOf(route.request.query), 'limit', 'cursor', g.text(5)];
  const parts: string[] = [];
  const count = g.int(5);
  for (let i = 0; i < count; i++) {
    const name = g.pick(names);
    const value = g.chance(0.2)
      ? g.pick(['%zz', '%E0%A4%A', '%', 'a=b=c', '&&', '='])
      : encode(String(oddValue(g)).slice(0, 2_000));
    parts.push(`${g.chance(0.1) ? '%zz' : encode(name)}=${value}`);
    // The same parameter twice.
    if (g.chance(0.2)) parts.push(`${encode(name)}=${encode(oddString(g).slice(0, 100))}`);
  }
  if (g.chance(0.05)) parts.push(`q=${'x'.repeat(g.pick([5_000, 12_000]))}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

function bodyFor(g: Generator, route: RouteDef): string | Uint8Array | undefined {
  const fields = fieldsOf(route.request.body);
  const writes = route.method !== 'GET';
  if (!writes && g.chance(0.8)) return undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    const kind = g.int(4);
    if (kind === 0) return oddBodyText(g);
    if (kind === 1) return JSON.stringify(oddValue(g));
    if (kind === 2) return new Uint8Array(Array.from({ length: g.int(64) + 1 }, () => g.int(256)));
    const object: Record<string, unknown> = {};
    for (const field of fields) if (g.chance(0.7)) object[field] = oddValue(g);
    if (g.chance(0.3)) object[g.text(6)] = oddValue(g);
    const text = JSON.stringify(object);
    // A write must never change anything: only bodies its own schema refuses are sent.
    if (!writes || !route.request.body || !route.request.body.safeParse(object).success) return text;
  }
  return oddBodyText(g);
}

function generate(g: Generator, index: number, route: RouteDef): FuzzRequest {
  const allowed = ROLES.filter((role) => route.roles.includes(role));
  // Mostly a role the route admits, so the request reaches its function; now and then another one.
  const role: Role | null =
    route.auth === 'public'
      ? g.chance(0.5)
        ? ROLES[index % ROLES.length]!
        : null
      : allowed.length && g.chance(0.9)
        ? allowed[index % allowed.length]!
        : ROLES[index % ROLES.length]!;
  // A read of a real invoice now and then, so that the function gets as far as the table with the rest malformed.
  const real = route.method === 'GET' && route.path.includes('{invoiceId}') && g.chance(0.3) ? g.pick(SEEDED) : null;
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    real
      ? encode({ supplierId: real.supplierId, invoiceType: real.type, invoiceId: real.id }[name] ?? '')
      : pathValue(g, name),
  );
  const headers: Record<string, string> = {};
  if (g.chance(0.7)) headers['content-type'] = g.pick(CONTENT_TYPES);
  if (g.chance(0.3)) {
    headers[HEADERS.companyId] = g.pick([CLIENTS[0]!.taxId, '', 'x', g.text(11, '0123456789'), g.text(2_000)]);
  }
  if (g.chance(0.2)) headers[HEADERS.requestId] = g.pick(['', 'short', g.text(200), 'a b c d e f g h']);
  // Another method: only those that reach no write route (DELETE and PATCH have none).
  const method = g.chance(0.05) ? g.pick(['GET', 'DELETE', 'PATCH']) : route.method;
  const body = method === 'GET' ? undefined : bodyFor(g, route);
  const query = queryString(g, route);
  const describedBody =
    body === undefined ? '' : typeof body === 'string' ? ` body ${body.slice(0, 80)}` : ` ${body.length} bytes`;
  return {
    route,
    role,
    method,
    path: path + query,
    headers,
    body,
    description: `#${index} ${role ?? 'anonymous'} ${method} ${(path + query).slice(0, 160)}${describedBody}`,
  };
}

interface Outcome {
  status: number;
  problems: string[];
}

async function send(request: FuzzRequest, tokens: Record<Role, string>): Promise<Outcome> {
  const headers = { ...request.headers };
  if (request.role) headers.authorization = `Bearer ${tokens[request.role]}`;
  const response = await fetch(stage().apiUrl + request.path, {
    method: request.method,
    headers,
    body: request.body as string | Uint8Array<ArrayBuffer> | undefined,
  });
  const text = await response.text();
  const problems: string[] = [];
  if (response.status >= 500) problems.push(`answered ${response.status}: ${text.slice(0, 300)}`);
  if (response.status === 401) problems.push('answered 401 to a valid token');
  if (response.status >= 400) {
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      problems.push(`refusal ${response.status} without a JSON body: ${text.slice(0, 200)}`);
      return { status: response.status, problems };
    }
    const first = body?.errors?.[0];
    const code = first?.code as ErrorCode | undefined;
    if (body?.statusCode !== response.status) problems.push(`statusCode ${body?.statusCode} ≠ ${response.status}`);
    if (typeof body?.txId !== 'string' || body.txId.length === 0) problems.push('no txId');
    if (!code || !ERROR_CODES.includes(code)) problems.push(`code ${String(code)} is not in the catalogue`);
    else if (body.message !== formatErrorMessage(code, first.parameters ?? {})) {
      problems.push(`message «${String(body.message).slice(0, 120)}» is not the catalogue's text of ${code}`);
    }
    for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) {
      if (response.headers.get(name) !== value) problems.push(`header ${name}: ${response.headers.get(name)}`);
    }
  }
  return { status: response.status, problems };
}

describe('fuzzing every route of the manifest', () => {
  it(`answers ${REQUESTS} malformed requests with no 5xx and every refusal in the documented body`, async () => {
    console.log(`fuzz seed ${SEED} (FUZZ_SEED=${SEED} replays it), ${REQUESTS} requests`);
    const tokens = Object.fromEntries(
      await Promise.all(
        ROLES.map(async (role) => [role, await idTokenOf(demoUser(role).username, demoUser(role).password)]),
      ),
    ) as Record<Role, string>;
    const g = new Generator(SEED);
    const requests: FuzzRequest[] = [];
    while (requests.length < REQUESTS) {
      const index = requests.length;
      requests.push(generate(g, index, ROUTES[index % ROUTES.length]!));
    }

    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const rolesSeen = new Map<string, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < requests.length) {
          const request = requests[next++]!;
          const outcome = await send(request, tokens);
          statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
          rolesSeen.set(request.role ?? 'anonymous', (rolesSeen.get(request.role ?? 'anonymous') ?? 0) + 1);
          for (const problem of outcome.problems) failures.push(`${request.description}: ${problem}`);
        }
      }),
    );
    console.log(
      `fuzz statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}, roles ${JSON.stringify(Object.fromEntries(rolesSeen))}`,
    );
    expect(failures.slice(0, 25), `${failures.length} problems (seed ${SEED})`).toEqual([]);
    // Every role reached the functions, and every route was asked.
    expect(new Set(requests.map((request) => request.route.id)).size).toBe(ROUTES.length);
    for (const role of ROLES) expect(rolesSeen.get(role) ?? 0).toBeGreaterThan(REQUESTS / 20);
  }, 240_000);
});
