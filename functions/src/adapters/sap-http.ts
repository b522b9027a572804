import * as z from 'zod/mini';

/* The HTTP side of S/4HANA's OData services: credentials, retries, the CSRF session and SAP's error answers. */

export const SUPPLIER_INVOICE_SERVICE = '/sap/opu/odata/sap/API_SUPPLIERINVOICE_PROCESS_SRV';
/** The payment runs as the portal reads them (a custom OData service on the SAP side). */
export const PAYMENT_RUN_SERVICE = '/sap/opu/odata/sap/ZPORTAL_PAYMENT_RUN_SRV';

export const SapCredentials = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('basic'),
    username: z.string().check(z.minLength(1)),
    password: z.string().check(z.minLength(1)),
  }),
  z.object({
    type: z.literal('oauth'),
    tokenUrl: z.url(),
    clientId: z.string().check(z.minLength(1)),
    clientSecret: z.string().check(z.minLength(1)),
    scope: z.optional(z.string()),
  }),
]);
export type SapCredentials = z.infer<typeof SapCredentials>;

/** SAP answered or failed in a way the caller may retry later (transport, 5xx, an unreadable answer). */
export class SapUnavailableError extends Error {
  override readonly name = 'SapUnavailableError';
}

/** SAP refused the request (4xx): retrying the same request gives the same answer. */
export class SapRejectedError extends Error {
  override readonly name = 'SapRejectedError';
  constructor(
    readonly status: number,
    readonly sapMessage: string,
  ) {
    super(`SAP rejected the request (${status}): ${sapMessage}`);
  }
}

const ErrorAnswer = z.object({ error: z.object({ message: z.object({ value: z.string() }) }) });
const TokenAnswer = z.object({
  access_token: z.string().check(z.minLength(1)),
  expires_in: z.coerce.number().check(z.positive()),
});

export interface SapClientOptions {
  readonly baseUrl: string;
  readonly credentials: () => Promise<SapCredentials>;
  readonly companyCodes: Readonly<Record<string, string>>;
  readonly fetch?: typeof fetch;
  /** Per request. @default 5000 */
  readonly timeoutMs?: number;
  /** Tries per request (transport errors and 5xx). @default 3 */
  readonly maxAttempts?: number;
  /** First backoff; doubles per try, with full jitter. @default 200 */
  readonly baseDelayMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
}

interface Session {
  readonly token: string;
  readonly cookie: string;
}

/** What the requests to one SAP system share: the options with their defaults, the CSRF session, the OAuth token. */
export interface SapConnection {
  readonly options: SapClientOptions;
  readonly base: string;
  readonly doFetch: typeof fetch;
  readonly timeoutMs: number;
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly sleep: (ms: number) => Promise<void>;
  session: Promise<Session> | null;
  oauth: { token: string; until: number } | null;
}

/** Worst case with the defaults: 3 × 5 s plus backoff per request; the token is fetched once per cold start. */
export function sapConnection(options: SapClientOptions): SapConnection {
  return {
    options,
    base: options.baseUrl.replace(/\/+$/, ''),
    doFetch: options.fetch ?? fetch,
    timeoutMs: options.timeoutMs ?? 5000,
    maxAttempts: options.maxAttempts ?? 3,
    baseDelayMs: options.baseDelayMs ?? 200,
    sleep: options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
    session: null,
    oauth: null,
  };
}

export async function authorization(connection: SapConnection): Promise<string> {
  const credentials = await connection.options.credentials();
  if (credentials.type === 'basic') {
    return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
  }
  const cached = connection.oauth;
  if (cached && cached.until > Date.now()) return `Bearer ${cached.token}`;
  const body = new URLSearchParams({ grant_type: 'client_credentials' });
  if (credentials.scope) body.set('scope', credentials.scope);
  const response = await send(connection, credentials.tokenUrl, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: body.toString(),
  });
  if (!response.ok) throw new SapRejectedError(response.status, 'OAuth token refused');
  const answer = TokenAnswer.safeParse(await response.json().catch(() => null));
  if (!answer.success) throw new SapUnavailableError('unreadable OAuth token answer');
  connection.oauth = { token: answer.data.access_token, until: Date.now() + (answer.data.expires_in - 60) * 1000 };
  return `Bearer ${connection.oauth.token}`;
}

/** One request with retries on transport errors, timeouts, 429 and 5xx; other answers are returned. */
export async function send(connection: SapConnection, url: string, init: RequestInit): Promise<Response> {
  const { doFetch, timeoutMs, maxAttempts, baseDelayMs, sleep } = connection;
  let lastProblem = '';
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    try {
      const response = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      if (response.status < 500 && response.status !== 429) return response;
      lastProblem = `HTTP ${response.status}`;
      await response.body?.cancel();
    } catch (error) {
      lastProblem = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    if (attempt < maxAttempts) await sleep(Math.random() * baseDelayMs * 2 ** (attempt - 1));
  }
  throw new SapUnavailableError(`SAP did not answer ${init.method ?? 'GET'} ${url}: ${lastProblem}`);
}

async function fetchSession(connection: SapConnection): Promise<Session> {
  const response = await send(connection, `${connection.base}${SUPPLIER_INVOICE_SERVICE}/`, {
    method: 'GET',
    headers: { authorization: await authorization(connection), 'x-csrf-token': 'Fetch', accept: 'application/json' },
  });
  const token = response.headers.get('x-csrf-token');
  await response.body?.cancel();
  if (!response.ok || !token) throw new SapUnavailableError(`no CSRF token (HTTP ${response.status})`);
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!.trim())
    .filter(Boolean)
    .join('; ');
  return { token, cookie };
}

/** The CSRF session of the connection, fetched once and shared; a failed fetch is tried again by the next caller. */
export function currentSession(connection: SapConnection): Promise<Session> {
  connection.session ??= fetchSession(connection).catch((error: unknown) => {
    connection.session = null;
    throw error;
  });
  return connection.session;
}

/** SAP's own words of a refusal (its OData error), else the HTTP status. */
export async function sapMessage(response: Response): Promise<string> {
  const parsed = ErrorAnswer.safeParse(await response.json().catch(() => null));
  return parsed.success ? parsed.data.error.message.value : `HTTP ${response.status}`;
}
