import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import * as z from 'zod/mini';
import { PortalError, RUC_ADDRESS_CONDITIONS, RUC_STATES, SUNAT_ENV, type InvoiceType } from '@portal/shared';
import { telemetry } from '../observability/telemetry.js';

/**
 * SUNAT's "consulta integrada de comprobantes de pago": an OAuth2 client-credentials token per
 * company (the RUC that asks, with the API credentials it registered in SUNAT's extranet) and
 * validarcomprobante, which answers the state of one document of another taxpayer.
 */

export const SUNAT_DEFAULT_TOKEN_URL = 'https://api-seguridad.sunat.gob.pe';
export const SUNAT_DEFAULT_API_URL = 'https://api.sunat.gob.pe';
const SCOPE = 'https://api.sunat.gob.pe/v1/contribuyente/contribuyentes';

export const SunatClientCredentials = z.object({
  clientId: z.string().check(z.minLength(1)),
  clientSecret: z.string().check(z.minLength(1)),
});
export type SunatClientCredentials = z.infer<typeof SunatClientCredentials>;
export const SunatCredentialsMap = z.record(z.string(), SunatClientCredentials);
export type SunatCredentialsMap = z.infer<typeof SunatCredentialsMap>;

/** SUNAT's codComp for each invoice type. A plain RECIBO is validated as a recibo por honorarios. */
export const SUNAT_DOCUMENT_CODES: Record<InvoiceType, string> = {
  FACTURA: '01',
  BOLETA: '03',
  NOTA_DE_CREDITO: '07',
  NOTA_DE_DEBITO: '08',
  RECIBO_POR_HONORARIOS: 'R1',
  RECIBO: 'R1',
};

/** estadoRuc and condDomiRuc: the taxpayer's state and its address condition (shared/src/sunat/catalogues.ts). */
export const SUNAT_TAXPAYER_STATES: Readonly<Record<string, string>> = RUC_STATES;
export const SUNAT_ADDRESS_CONDITIONS: Readonly<Record<string, string>> = RUC_ADDRESS_CONDITIONS;

/** Why a document is not valid, by estadoCp; '1' (aceptado) and '3' (autorizado) are valid. */
const INVALID_REASONS: Readonly<Record<string, string>> = {
  '0': 'El comprobante no existe en los registros de SUNAT.',
  '2': 'El comprobante fue anulado (comunicado de baja) ante SUNAT.',
  '4': 'El comprobante no está autorizado por SUNAT (imprenta no autorizada).',
};
const VALID_STATES = new Set(['1', '3']);

/** The document to ask about, as the portal holds it. */
export interface SunatDocument {
  /** RUC of the issuer (the supplier). */
  readonly issuerRuc: string;
  readonly type: InvoiceType;
  readonly series: string;
  readonly number: string;
  /** yyyy-mm-dd */
  readonly issuedAt: string;
  /** Total of the document, with taxes. */
  readonly amount: number;
}

export interface SunatVerdict {
  readonly certStatus: 'VALID' | 'INVALID';
  /** Spanish, for people: why the document is not valid (null when valid). */
  readonly reason: string | null;
  readonly estadoCp: string;
  /** Spanish labels of SUNAT's codes (the code itself when unknown); null when SUNAT gave none. */
  readonly estadoRuc: string | null;
  readonly condDomiRuc: string | null;
  readonly observaciones: string[];
}

export interface SunatValidator {
  /** Asks SUNAT, on behalf of the company `consultingRuc`, whether the document is valid. */
  validate(consultingRuc: string, document: SunatDocument): Promise<SunatVerdict>;
}

/**
 * SUNAT could not be asked (network, timeout, 5xx after retries, an answer we cannot read, missing
 * credentials). Worth retrying later; the invoice keeps certStatus PENDING.
 */
export class SunatUnavailableError extends PortalError {
  /** What went wrong, for the logs (the message is the catalogue's, for people). */
  readonly detail: string;

  constructor(detail: string, options: { cause?: unknown } = {}) {
    super(502, 'ERROR_UNEXPECTED_RESPONSE_FROM_SUNAT_VERIFICATION_SERVICE', { detail });
    this.detail = detail;
    if (options.cause !== undefined) this.cause = options.cause;
  }
}

const TokenAnswer = z.object({
  access_token: z.string().check(z.minLength(1)),
  expires_in: z.coerce.number().check(z.positive()),
});
const ValidationAnswer = z.object({
  success: z.boolean(),
  message: z.nullish(z.string()),
  data: z.nullish(
    z.object({
      estadoCp: z.coerce.string(),
      estadoRuc: z.nullish(z.coerce.string()),
      condDomiRuc: z.nullish(z.coerce.string()),
      observaciones: z.nullish(z.array(z.coerce.string())),
    }),
  ),
});

export interface SunatClientOptions {
  readonly tokenUrl: string;
  readonly apiUrl: string;
  /** The credentials of a company, or null when it has none. */
  readonly credentials: (ruc: string) => Promise<SunatClientCredentials | null>;
  readonly fetch?: typeof fetch;
  /** Per request. @default 4000 */
  readonly timeoutMs?: number;
  /** Tries per request (transport errors and 5xx). @default 3 */
  readonly maxAttempts?: number;
  /** First backoff; doubles per try, with full jitter. @default 200 */
  readonly baseDelayMs?: number;
  /** A token is renewed this long before SUNAT says it expires. @default 60000 */
  readonly tokenMarginMs?: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
}

/** The body of validarcomprobante for a document: SUNAT's codes, its number without leading zeros, dd/mm/yyyy. */
function validationRequest(document: SunatDocument) {
  return {
    numRuc: document.issuerRuc,
    codComp: SUNAT_DOCUMENT_CODES[document.type],
    numeroSerie: document.series,
    numero: document.number.replace(/^0+(?=\d)/, ''),
    fechaEmision: document.issuedAt.split('-').reverse().join('/'),
    monto: document.amount.toFixed(2),
  };
}

/** SUNAT's answer in the portal's words: the verdict, its reason, and the taxpayer's states by SUNAT's labels. */
function verdictOf(data: NonNullable<z.infer<typeof ValidationAnswer>['data']>): SunatVerdict {
  const valid = VALID_STATES.has(data.estadoCp);
  return {
    certStatus: valid ? 'VALID' : 'INVALID',
    reason: valid
      ? null
      : (INVALID_REASONS[data.estadoCp] ?? `SUNAT respondió un estado desconocido (${data.estadoCp}).`),
    estadoCp: data.estadoCp,
    estadoRuc: data.estadoRuc ? (SUNAT_TAXPAYER_STATES[data.estadoRuc] ?? data.estadoRuc) : null,
    condDomiRuc: data.condDomiRuc ? (SUNAT_ADDRESS_CONDITIONS[data.condDomiRuc] ?? data.condDomiRuc) : null,
    observaciones: data.observaciones ?? [],
  };
}

/** Worst case with the defaults: (3 × 4 s + backoff) for the token and again for the query, under the worker's 30 s. */
export function makeSunatClient(options: SunatClientOptions): SunatValidator {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 4000;
  const maxAttempts = options.maxAttempts ?? 3;
  const baseDelayMs = options.baseDelayMs ?? 200;
  const tokenMarginMs = options.tokenMarginMs ?? 60_000;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const tokenUrl = options.tokenUrl.replace(/\/+$/, '');
  const apiUrl = options.apiUrl.replace(/\/+$/, '');

  /** Tokens per company; concurrent callers share the request in flight. */
  const tokens = new Map<string, Promise<{ token: string; renewAt: number }>>();

  /** One HTTP exchange with timeout; transport errors and 5xx are retried with backoff. */
  async function send(what: string, url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
    let lastProblem = '';
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      if (attempt > 1) await sleep(random() * baseDelayMs * 2 ** (attempt - 1));
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), timeoutMs);
      try {
        const response = await doFetch(url, { ...init, signal: abort.signal });
        const text = await response.text();
        if (response.status >= 500) {
          lastProblem = `${what}: HTTP ${response.status}`;
          continue;
        }
        let body: unknown = null;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          throw new SunatUnavailableError(`${what}: HTTP ${response.status} with a body that is not JSON`);
        }
        return { status: response.status, body };
      } catch (error) {
        if (error instanceof SunatUnavailableError) throw error;
        lastProblem = abort.signal.aborted
          ? `${what}: no answer within ${timeoutMs} ms`
          : `${what}: ${error instanceof Error ? error.message : String(error)}`;
      } finally {
        clearTimeout(timer);
      }
    }
    throw new SunatUnavailableError(`${lastProblem} (${maxAttempts} tries)`);
  }

  async function requestToken(ruc: string): Promise<{ token: string; renewAt: number }> {
    const credentials = await options.credentials(ruc);
    if (!credentials) throw new SunatUnavailableError(`no SUNAT API credentials for company ${ruc}`);
    const { status, body } = await send(
      'token',
      `${tokenUrl}/v1/clientesextranet/${encodeURIComponent(credentials.clientId)}/oauth2/token/`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          scope: SCOPE,
          client_id: credentials.clientId,
          client_secret: credentials.clientSecret,
        }).toString(),
      },
    );
    const answer = TokenAnswer.safeParse(body);
    if (status !== 200 || !answer.success) {
      throw new SunatUnavailableError(`token for company ${ruc} refused: HTTP ${status}`);
    }
    return { token: answer.data.access_token, renewAt: now() + answer.data.expires_in * 1000 - tokenMarginMs };
  }

  async function tokenFor(ruc: string): Promise<string> {
    const cached = tokens.get(ruc);
    if (cached) {
      const held = await cached.catch(() => null);
      if (held && now() < held.renewAt) return held.token;
      if (tokens.get(ruc) !== cached) return tokenFor(ruc);
    }
    const pending = requestToken(ruc);
    tokens.set(ruc, pending);
    pending.catch(() => {
      if (tokens.get(ruc) === pending) tokens.delete(ruc);
    });
    return (await pending).token;
  }

  return {
    async validate(consultingRuc, document) {
      const url = `${apiUrl}/v1/contribuyente/contribuyentes/${consultingRuc}/validarcomprobante`;
      const payload = JSON.stringify(validationRequest(document));
      let answer: { status: number; body: unknown } | undefined;
      // A token SUNAT no longer accepts (revoked, clock skew) is renewed once.
      for (let round = 0; round < 2; round++) {
        const token = await tokenFor(consultingRuc);
        answer = await send('validarcomprobante', url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: payload,
        });
        if (answer.status !== 401) break;
        tokens.delete(consultingRuc);
      }
      const parsed = ValidationAnswer.safeParse(answer?.body);
      if (answer?.status !== 200 || !parsed.success || !parsed.data.success || !parsed.data.data) {
        const message = parsed.success ? (parsed.data.message ?? '') : 'unreadable body';
        throw new SunatUnavailableError(`validarcomprobante: HTTP ${answer?.status} ${message}`.trim());
      }
      return verdictOf(parsed.data.data);
    },
  };
}

/**
 * The credentials of every company, read once: SUNAT_CREDENTIALS when set, else the Secrets Manager
 * secret named by SUNAT_CREDENTIALS_SECRET_ARN (fetched on first use, kept for the cold start).
 */
export function credentialsFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  secrets: () => SecretsManagerClient = () => telemetry.instrumentClient(new SecretsManagerClient({})),
): (ruc: string) => Promise<SunatClientCredentials | null> {
  let loaded: Promise<SunatCredentialsMap> | undefined;
  const load = async (): Promise<SunatCredentialsMap> => {
    const inline = env[SUNAT_ENV.credentials];
    if (inline) return parseCredentials(inline, SUNAT_ENV.credentials);
    const arn = env[SUNAT_ENV.credentialsSecretArn];
    if (!arn) return {};
    const secret = await secrets().send(new GetSecretValueCommand({ SecretId: arn }));
    return parseCredentials(secret.SecretString ?? '', 'the SUNAT credentials secret');
  };
  return async (ruc) => {
    if (!loaded) {
      const attempt = load();
      loaded = attempt;
      // A failed read (Secrets Manager unreachable) is tried again by the next message.
      attempt.catch(() => {
        if (loaded === attempt) loaded = undefined;
      });
    }
    return (await loaded)[ruc] ?? null;
  };
}

function parseCredentials(text: string, source: string): SunatCredentialsMap {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new SunatUnavailableError(`${source} is not JSON`, { cause });
  }
  const parsed = SunatCredentialsMap.safeParse(json);
  if (!parsed.success) throw new SunatUnavailableError(`${source} is not a map {ruc: {clientId, clientSecret}}`);
  return parsed.data;
}

/** The client configured by the environment (endpoints default to SUNAT's own). */
export function sunatFromEnv(env: NodeJS.ProcessEnv = process.env): SunatValidator {
  return makeSunatClient({
    tokenUrl: env[SUNAT_ENV.tokenUrl] || SUNAT_DEFAULT_TOKEN_URL,
    apiUrl: env[SUNAT_ENV.apiUrl] || SUNAT_DEFAULT_API_URL,
    credentials: credentialsFromEnv(env),
  });
}
