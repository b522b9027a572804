import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { RUC_ADDRESS_CONDITIONS, RUC_STATES } from '@portal/shared';
import { listen, type RunningService } from '../stand-ins/types.js';

/**
 * SUNAT's "consulta integrada de comprobantes de pago": the OAuth2 client-credentials token endpoint
 * (checking each company's API credentials) and validarcomprobante, whose answer tests and demo data
 * choose per document:
 * - by the control endpoint: POST /__control/outcomes {numRuc, numeroSerie, numero, outcome[, estadoRuc,
 *   condDomiRuc]} (it also restarts that document's request count);
 * - by convention, from the last two digits of the correlative (numero): 90 NOT_FOUND (estadoCp 0),
 *   91 ANNULLED (2), 92 SLOW (the first query sleeps longer than the adapter's timeout, later ones
 *   answer valid), 93 FLAKY (500 twice, then valid), 94 FAILING (always 500); any other is VALID (1).
 * The state of the issuer's RUC (estadoRuc) and of its address (condDomiRuc) in every valid answer: '00' (ACTIVO,
 * HABIDO) unless chosen for the document (above), or for the RUC: POST /__control/taxpayers {numRuc, estadoRuc,
 * condDomiRuc} (any code of SUNAT's tables, shared/src/sunat/catalogues.ts; the local stage starts with the seed's
 * NO HABIDO supplier). A code outside SUNAT's tables is refused (400), as no SUNAT answer carries one.
 * GET /__control/requests counts token and validation requests, also per document `ruc-serie-numero`.
 */
export const SUNAT_OUTCOMES = [
  'VALID',
  'AUTHORIZED',
  'NOT_FOUND',
  'ANNULLED',
  'NOT_AUTHORIZED',
  'SLOW',
  'FLAKY',
  'FAILING',
] as const;
export type SunatOutcome = (typeof SUNAT_OUTCOMES)[number];

/** Outcomes chosen by the last two digits of the correlative. */
export const SUNAT_OUTCOME_BY_SUFFIX: Readonly<Record<string, SunatOutcome>> = {
  '90': 'NOT_FOUND',
  '91': 'ANNULLED',
  '92': 'SLOW',
  '93': 'FLAKY',
  '94': 'FAILING',
};

/** The outcome a document gets by convention, from the last two digits of its correlative (above). */
export function outcomeByConvention(numero: string | number): SunatOutcome {
  return SUNAT_OUTCOME_BY_SUFFIX[String(numero).padStart(2, '0').slice(-2)] ?? 'VALID';
}

const ESTADO_CP: Record<SunatOutcome, string> = {
  VALID: '1',
  AUTHORIZED: '3',
  NOT_FOUND: '0',
  ANNULLED: '2',
  NOT_AUTHORIZED: '4',
  SLOW: '1',
  FLAKY: '1',
  FAILING: '1',
};

export interface SunatApiCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** The API credentials the local stage gives each company (the same pairs go to the functions). */
export function localSunatCredentials(rucs: readonly string[]): Record<string, SunatApiCredentials> {
  return Object.fromEntries(
    rucs.map((ruc) => [ruc, { clientId: `portal-local-${ruc}`, clientSecret: `secreto-local-${ruc}` }]),
  );
}

export interface SunatSimulatorOptions {
  /** API credentials per company RUC: only these obtain tokens, and only for their own RUC. */
  readonly credentials: Readonly<Record<string, SunatApiCredentials>>;
  /** How long a SLOW document's first query takes. @default 6000 (the adapter gives up at 4000) */
  readonly slowMs?: number;
  /** @default 3600 */
  readonly tokenTtlSeconds?: number;
  /**
   * SUNAT's "now" for the documents it knows (the stage's clock): a document issued after today in Lima does not exist
   * yet. Its OAuth tokens keep real time, as the adapter that caches them does. @default real time
   */
  readonly clock?: () => Date;
  /** The state of some RUCs from the start (estadoRuc, condDomiRuc codes); the others are ACTIVO and HABIDO. */
  readonly taxpayers?: Readonly<Record<string, TaxpayerState>>;
}

/** SUNAT's codes of a RUC's state and of its address condition. */
export interface TaxpayerState {
  readonly estadoRuc: string;
  readonly condDomiRuc: string;
}

/** Why a state is not one SUNAT answers, or null. */
function taxpayerProblem(estadoRuc: unknown, condDomiRuc: unknown): string | null {
  if (estadoRuc !== undefined && !(typeof estadoRuc === 'string' && estadoRuc in RUC_STATES))
    return `estadoRuc: uno de ${Object.keys(RUC_STATES).join(', ')}`;
  if (condDomiRuc !== undefined && !(typeof condDomiRuc === 'string' && condDomiRuc in RUC_ADDRESS_CONDITIONS))
    return `condDomiRuc: uno de ${Object.keys(RUC_ADDRESS_CONDITIONS).join(', ')}`;
  return null;
}

interface Choice {
  outcome: SunatOutcome;
  estadoRuc?: string;
  condDomiRuc?: string;
}

interface Answer {
  status: number;
  body?: unknown;
}

/** What the simulator holds: its tokens, the outcomes and taxpayers chosen, and the requests counted. */
interface SunatState {
  readonly options: SunatSimulatorOptions;
  readonly slowMs: number;
  readonly tokenTtlSeconds: number;
  readonly tokens: Map<string, { ruc: string; expiresAt: number }>;
  readonly chosen: Map<string, Choice>;
  readonly taxpayers: Map<string, TaxpayerState>;
  readonly counts: { token: number; validate: number; documents: Map<string, number> };
}

export function startSunatSimulator(
  port: number,
  host: string,
  options: SunatSimulatorOptions,
): Promise<RunningService> {
  const state: SunatState = {
    options,
    slowMs: options.slowMs ?? 6000,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
    tokens: new Map(),
    chosen: new Map(),
    taxpayers: new Map<string, TaxpayerState>(Object.entries(options.taxpayers ?? {})),
    counts: { token: 0, validate: 0, documents: new Map<string, number>() },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      route(state, req, Buffer.concat(chunks).toString('utf8')).then(
        (answer) => {
          // The client of a SLOW query has usually hung up by now.
          if (res.destroyed) return;
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
        },
        (error: Error) => {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ message: error.message }));
        },
      );
    });
  });
  return listen('sunat', server, port, host);
}

const documentKey = (ruc: string, serie: string, numero: string) =>
  `${ruc}-${serie.toUpperCase()}-${numero.replace(/^0+(?=\d)/, '')}`;

function token(state: SunatState, clientIdInPath: string, body: string): Answer {
  state.counts.token++;
  const form = new URLSearchParams(body);
  if (form.get('grant_type') !== 'client_credentials') {
    return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'grant_type no soportado' } };
  }
  const ruc = Object.keys(state.options.credentials).find((candidate) => {
    const pair = state.options.credentials[candidate]!;
    return (
      pair.clientId === clientIdInPath &&
      pair.clientId === form.get('client_id') &&
      pair.clientSecret === form.get('client_secret')
    );
  });
  if (!ruc) return { status: 401, body: { error: 'invalid_client', error_description: 'cliente no autorizado' } };
  const accessToken = randomUUID();
  state.tokens.set(accessToken, { ruc, expiresAt: Date.now() + state.tokenTtlSeconds * 1000 });
  return { status: 200, body: { access_token: accessToken, token_type: 'JWT', expires_in: state.tokenTtlSeconds } };
}

async function validate(
  state: SunatState,
  ruc: string,
  authorization: string | undefined,
  body: string,
): Promise<Answer> {
  state.counts.validate++;
  const bearer = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
  const held = bearer ? state.tokens.get(bearer) : undefined;
  if (!held || held.expiresAt <= Date.now()) return { status: 401, body: { msg: 'Token inválido o expirado' } };
  if (held.ruc !== ruc) return { status: 403, body: { msg: 'El RUC consultante no corresponde a las credenciales' } };

  let query: Record<string, unknown>;
  try {
    query = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return { status: 400, body: { success: false, message: 'Cuerpo inválido' } };
  }
  const fields = ['numRuc', 'codComp', 'numeroSerie', 'numero', 'fechaEmision'] as const;
  const missing = fields.filter((name) => query[name] === undefined || query[name] === '');
  if (missing.length > 0 || !/^\d{2}\/\d{2}\/\d{4}$/.test(String(query.fechaEmision))) {
    return { status: 400, body: { success: false, message: `Parámetros inválidos: ${missing.join(', ')}` } };
  }
  // SUNAT knows no document issued after its today (Lima): it answers that it does not exist.
  const [day, month, year] = String(query.fechaEmision).split('/');
  const today = new Date((state.options.clock ?? (() => new Date()))().getTime() - 5 * 3_600_000)
    .toISOString()
    .slice(0, 10);
  if (`${year}-${month}-${day}` > today) {
    return {
      status: 200,
      body: { success: true, message: 'Operation Success! ', data: { estadoCp: '0', observaciones: [] } },
    };
  }
  const numero = String(query.numero);
  const key = documentKey(String(query.numRuc), String(query.numeroSerie), numero);
  const seen = (state.counts.documents.get(key) ?? 0) + 1;
  state.counts.documents.set(key, seen);
  const choice = state.chosen.get(key) ?? { outcome: outcomeByConvention(numero) };

  if (choice.outcome === 'FAILING' || (choice.outcome === 'FLAKY' && seen <= 2)) {
    return { status: 500, body: { message: 'Internal Server Error' } };
  }
  if (choice.outcome === 'SLOW' && seen === 1) await new Promise((resolve) => setTimeout(resolve, state.slowMs));
  const estadoCp = ESTADO_CP[choice.outcome];
  return {
    status: 200,
    body: {
      success: true,
      message: 'Operation Success! ',
      data:
        estadoCp === '0'
          ? { estadoCp, observaciones: [] }
          : {
              estadoCp,
              estadoRuc: choice.estadoRuc ?? state.taxpayers.get(String(query.numRuc))?.estadoRuc ?? '00',
              condDomiRuc: choice.condDomiRuc ?? state.taxpayers.get(String(query.numRuc))?.condDomiRuc ?? '00',
              observaciones: estadoCp === '2' ? ['- El comprobante ha sido dado de baja.'] : [],
            },
    },
  };
}

function choose(state: SunatState, body: string): Answer {
  let input: Record<string, unknown>;
  try {
    input = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return { status: 400, body: { message: 'JSON inválido' } };
  }
  const { numRuc, numeroSerie, numero, outcome, estadoRuc, condDomiRuc } = input;
  if (
    typeof numRuc !== 'string' ||
    typeof numeroSerie !== 'string' ||
    (typeof numero !== 'string' && typeof numero !== 'number') ||
    !SUNAT_OUTCOMES.includes(outcome as SunatOutcome)
  ) {
    return {
      status: 400,
      body: { message: `Se espera {numRuc, numeroSerie, numero, outcome: ${SUNAT_OUTCOMES.join('|')}}` },
    };
  }
  const problem = taxpayerProblem(estadoRuc, condDomiRuc);
  if (problem) return { status: 400, body: { message: problem } };
  const key = documentKey(numRuc, numeroSerie, String(numero));
  state.chosen.set(key, {
    outcome: outcome as SunatOutcome,
    ...(typeof estadoRuc === 'string' ? { estadoRuc } : {}),
    ...(typeof condDomiRuc === 'string' ? { condDomiRuc } : {}),
  });
  state.counts.documents.delete(key);
  return { status: 200, body: { document: key, outcome } };
}

function chooseTaxpayer(state: SunatState, body: string): Answer {
  let input: Record<string, unknown>;
  try {
    input = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return { status: 400, body: { message: 'JSON inválido' } };
  }
  const { numRuc, estadoRuc = '00', condDomiRuc = '00' } = input;
  if (typeof numRuc !== 'string' || !/^\d{11}$/.test(numRuc))
    return { status: 400, body: { message: 'Se espera {numRuc (11 dígitos), estadoRuc, condDomiRuc}' } };
  const problem = taxpayerProblem(estadoRuc, condDomiRuc);
  if (problem) return { status: 400, body: { message: problem } };
  state.taxpayers.set(numRuc, { estadoRuc: estadoRuc as string, condDomiRuc: condDomiRuc as string });
  return {
    status: 200,
    body: {
      numRuc,
      estadoRuc,
      condDomiRuc,
      labels: {
        estadoRuc: RUC_STATES[estadoRuc as string],
        condDomiRuc: RUC_ADDRESS_CONDITIONS[condDomiRuc as string],
      },
    },
  };
}

async function route(state: SunatState, req: http.IncomingMessage, body: string): Promise<Answer> {
  const { pathname } = new URL(req.url ?? '/', 'http://localhost');
  const tokenPath = /^\/v1\/clientesextranet\/([^/]+)\/oauth2\/token\/?$/.exec(pathname);
  if (req.method === 'POST' && tokenPath) return token(state, decodeURIComponent(tokenPath[1]!), body);
  const validatePath = /^\/v1\/contribuyente\/contribuyentes\/(\d{11})\/validarcomprobante$/.exec(pathname);
  if (req.method === 'POST' && validatePath) return validate(state, validatePath[1]!, req.headers.authorization, body);
  if (req.method === 'POST' && pathname === '/__control/outcomes') return choose(state, body);
  if (req.method === 'POST' && pathname === '/__control/taxpayers') return chooseTaxpayer(state, body);
  if (req.method === 'GET' && pathname === '/__control/requests') {
    return {
      status: 200,
      body: {
        token: state.counts.token,
        validate: state.counts.validate,
        documents: Object.fromEntries(state.counts.documents),
      },
    };
  }
  return { status: 404, body: { message: 'not found' } };
}
