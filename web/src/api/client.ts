import { fetchAuthSession } from 'aws-amplify/auth';
import {
  CLAIMS,
  CLIENT_MESSAGES,
  HEADERS,
  LEVELS,
  REQUEST_TIMEOUT_MS,
  WEB_CONSUMER_ID,
  buildPath,
  parseTaxIds,
  type Level,
  type RouteBodyInput,
  type RouteDef,
  type RoutePath,
  type RouteQueryInput,
  type RouteResponse,
} from '@portal/shared';
import { runtimeConfig, usesMockProvider } from '../config/runtime-config';
import { mockSession, mockTokenOf } from '../session/mock-session';
import { resolveActiveCompany } from '../session/active-company';
import { ApiError, SessionMissingError, TokenError, parseErrorBody } from './errors';
import { apiFetch, loadWafIntegration, type Fetch } from './waf';

export { ApiError, SessionMissingError, TokenError, errorMessage } from './errors';

/** The path, query and body of a call, typed from the route's schemas in the shared manifest. */
export type CallInput<R extends RouteDef> = (RoutePath<R> extends undefined
  ? { path?: undefined }
  : { path: RoutePath<R> }) &
  (RouteQueryInput<R> extends undefined
    ? { query?: undefined }
    : Record<string, never> extends RouteQueryInput<R>
      ? { query?: RouteQueryInput<R> }
      : { query: RouteQueryInput<R> }) &
  (RouteBodyInput<R> extends undefined ? { body?: undefined } : { body: RouteBodyInput<R> }) & {
    signal?: AbortSignal;
    /** The company the call acts for, instead of the one chosen in the header (an invoice's own, say). */
    company?: string;
  };

type CallArgs<R extends RouteDef> =
  Record<string, never> extends CallInput<R> ? [input?: CallInput<R>] : [input: CallInput<R>];

type ForbiddenHandler = () => void;

let onForbidden: ForbiddenHandler = () => window.location.assign('/forbidden');

/** The router registers its navigation here so a 403 moves to /forbidden without a page reload. */
export function setForbiddenHandler(handler: ForbiddenHandler): void {
  onForbidden = handler;
}

interface Credentials {
  readonly idToken: string;
  readonly companies: string[];
}

/**
 * The ID token, not the access token: the API reads the portal's custom claims (level, taxId),
 * which the PreTokenGeneration trigger can only add to the ID token.
 */
async function credentials(forceRefresh: boolean): Promise<Credentials> {
  if (usesMockProvider()) return mockCredentials();
  let session;
  try {
    session = await fetchAuthSession({ forceRefresh });
  } catch (error) {
    throw new TokenError(error);
  }
  const idToken = session.tokens?.idToken;
  if (!idToken) throw new SessionMissingError();
  const taxIdClaim = idToken.payload[CLAIMS.taxId];
  return {
    idToken: idToken.toString(),
    companies: typeof taxIdClaim === 'string' ? parseTaxIds(taxIdClaim) : [],
  };
}

/** On the mock provider: the role picked at the login, as a token the mock handlers read. */
function mockCredentials(): Credentials {
  const session = mockSession();
  if (!session) throw new SessionMissingError();
  return { idToken: mockTokenOf(session), companies: parseTaxIds(session.taxId) };
}

const isLevel = (value: unknown): value is Level => (LEVELS as readonly unknown[]).includes(value);

/** What the signed-in user's ID token says of the user: the level and companies GET /users/me answers with. */
export interface TokenClaims {
  readonly level: Level;
  readonly taxIds: readonly string[];
}

/**
 * The level and companies of the signed-in user as its ID token carries them (GET /users/me answers the same
 * claims), or null when nobody is signed in, the token carries no level, or on the mock provider (whose answers
 * come from the browser itself: nothing to start early). Never calls the API.
 */
export async function tokenClaims(): Promise<TokenClaims | null> {
  if (usesMockProvider()) return null;
  try {
    const payload = (await fetchAuthSession()).tokens?.idToken?.payload;
    const level = payload?.[CLAIMS.level];
    if (!payload || !isLevel(level)) return null;
    const taxId = payload[CLAIMS.taxId];
    return { level, taxIds: typeof taxId === 'string' ? parseTaxIds(taxId) : [] };
  } catch {
    return null;
  }
}

/** Whether a user is signed in (an ID token is available, refreshed if needed). */
export async function hasSession(): Promise<boolean> {
  if (usesMockProvider()) return mockSession() !== null;
  try {
    const session = await fetchAuthSession();
    return Boolean(session.tokens?.idToken);
  } catch {
    return false;
  }
}

/** Serialises a query: lists become comma lists (spec §7), empty values are left out. */
export function toSearchParams(query: Record<string, unknown> | undefined): URLSearchParams {
  const params = new URLSearchParams();
  if (!query) return params;
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params.set(name, value.map(String).join(','));
      continue;
    }
    params.set(name, String(value));
  }
  return params;
}

function requestUrl(route: RouteDef, input: { path?: unknown; query?: unknown }): string {
  const base = runtimeConfig().apiUrl.replace(/\/+$/, '');
  const path = buildPath(route, (input.path ?? {}) as Record<string, string>);
  const search = toSearchParams(input.query as Record<string, unknown> | undefined).toString();
  return `${base}${path}${search ? `?${search}` : ''}`;
}

let transport: Fetch | null = null;

/** The browser's fetch, or on a stage behind AWS WAF one that attaches the WAF token (api/waf.ts). */
function apiTransport(): Fetch {
  transport ??= apiFetch(runtimeConfig().waf, {
    fetch: (url, init) => fetch(url, init),
    integration: loadWafIntegration,
  });
  return transport;
}

async function send(
  route: RouteDef,
  url: string,
  body: unknown,
  auth: Credentials | null,
  callerSignal: AbortSignal | undefined,
  forCompany?: string,
): Promise<Response> {
  const headers = new Headers({
    accept: 'application/json',
    [HEADERS.consumerId]: WEB_CONSUMER_ID,
    [HEADERS.requestId]: crypto.randomUUID(),
  });
  if (auth) {
    headers.set('authorization', `Bearer ${auth.idToken}`);
    const company = forCompany ?? resolveActiveCompany(auth.companies);
    if (company) headers.set(HEADERS.companyId, company);
  }
  if (body !== undefined) headers.set('content-type', 'application/json');

  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), REQUEST_TIMEOUT_MS);
  const signal = callerSignal ? AbortSignal.any([callerSignal, timeout.signal]) : timeout.signal;
  try {
    return await apiTransport()(url, {
      method: route.method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (callerSignal?.aborted) throw error;
    throw new ApiError({
      status: 0,
      routeId: route.id,
      message: CLIENT_MESSAGES.unknownApiError,
      timedOut: timeout.signal.aborted,
      cause: error,
    });
  } finally {
    clearTimeout(timer);
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * Spec §8: a 403 means the session may not do this ('Sesión inválida.', then /forbidden). A 403 that
 * names a rule of the document instead (ERROR_INVOICE_SUPPLIER_NOT_CALLER: an XML issued by another
 * RUC) is an answer about what was sent, shown where it was sent.
 */
const SESSION_REFUSALS = new Set<string | undefined>([
  undefined,
  'ERROR_FORBIDDEN',
  'ERROR_COMPANY_NOT_ALLOWED',
  'ERROR_USER_DISABLED',
]);

function isSessionRefusal(code: string | undefined): boolean {
  return SESSION_REFUSALS.has(code);
}

/**
 * Calls one route of the shared manifest: `apiCall(routes.listInvoices, { query })`.
 * Adds the bearer ID token, the company, consumer and request-id headers and, behind AWS WAF, the WAF
 * token (a call that cannot get one fails like a call that got no answer); times out after 30 s;
 * retries a 401 once with a refreshed session; sends the browser to /forbidden on a 403; turns any
 * other failure into an ApiError carrying the body's txId and error codes.
 */
export async function apiCall<R extends RouteDef>(route: R, ...args: CallArgs<R>): Promise<RouteResponse<R>> {
  return call(route, args[0] ?? {}, { reportRefusal: true });
}

/**
 * The same call made ahead of the screen that needs it, before the navigation guard has checked the session
 * (docs/web-performance.md): a 403 is only reported to the caller, never acted on (the guard decides where a
 * refused session goes; the screen, if it renders, asks again and reacts as `apiCall` does).
 */
export async function apiCallAhead<R extends RouteDef>(route: R, ...args: CallArgs<R>): Promise<RouteResponse<R>> {
  return call(route, args[0] ?? {}, { reportRefusal: false });
}

async function call<R extends RouteDef>(
  route: R,
  input: { path?: unknown; query?: unknown; body?: unknown; signal?: AbortSignal; company?: string },
  { reportRefusal }: { reportRefusal: boolean },
): Promise<RouteResponse<R>> {
  const url = requestUrl(route, input);
  const authenticated = route.auth === 'jwt';

  let auth = authenticated ? await credentials(false) : null;
  let response = await send(route, url, input.body, auth, input.signal, input.company);
  if (response.status === 401 && authenticated) {
    auth = await credentials(true);
    response = await send(route, url, input.body, auth, input.signal, input.company);
  }

  const payload = await readJson(response);
  if (!response.ok) {
    const parsed = parseErrorBody(payload);
    if (reportRefusal && response.status === 403 && isSessionRefusal(parsed.errors[0]?.code ?? undefined)) {
      onForbidden();
    }
    throw new ApiError({
      status: response.status,
      routeId: route.id,
      message:
        parsed.message ??
        (response.status === 401
          ? CLIENT_MESSAGES.unauthorized
          : response.status === 403
            ? CLIENT_MESSAGES.forbidden
            : CLIENT_MESSAGES.fallback),
      txId: parsed.txId,
      errors: parsed.errors,
    });
  }

  const result = route.response.safeParse(payload);
  if (result.success) return result.data as RouteResponse<R>;
  // A drifted answer is reported but still shown: the page degrades instead of going blank.
  console.warn(`La respuesta de ${route.id} no coincide con el contrato`, result.error.issues);
  return payload as RouteResponse<R>;
}
