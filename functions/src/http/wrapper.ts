import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import {
  API_SECURITY_HEADERS,
  CORS,
  UNEXPECTED_ERROR_MESSAGE,
  HEADERS,
  PortalError,
  REQUEST_ID_PATTERN,
  RUNTIME_ENV,
  BadRequestError,
  ForbiddenError,
  forLevel,
  type ErrorBody,
  type RouteBody,
  type RouteDef,
  type RoutePath,
  type RouteQuery,
  type RouteResponse,
} from '@portal/shared';
import { assertCallerEnabled } from './access-check.js';
import { resolveCaller, type Caller } from './caller.js';
import { logger, withKeys, type RequestLog } from '../observability/logger.js';
import { observability } from '../observability/observed.js';
import { ATTR_TX_ID, annotate, telemetry } from '../observability/telemetry.js';
import { parsePart } from './validation.js';

export type HttpEvent = APIGatewayProxyEventV2WithJWTAuthorizer;
export type HttpResult = APIGatewayProxyStructuredResultV2;

export interface HttpRequest<R extends RouteDef> {
  readonly route: R;
  readonly path: RoutePath<R>;
  readonly query: RouteQuery<R>;
  readonly body: RouteBody<R>;
  /** Null only on public routes. */
  readonly caller: R['auth'] extends 'jwt' ? Caller : null;
  readonly txId: string;
  readonly log: RequestLog;
  readonly event: HttpEvent;
}

const WEB_ORIGINS = (process.env[RUNTIME_ENV.webOrigin] ?? '')
  .split(',')
  .map((origin) => origin.trim())
  .filter(Boolean);

/** Empty on the local stage and in the tests: then any request is served, as before CloudFront existed. */
const ORIGIN_VERIFY_TOKEN = process.env[RUNTIME_ENV.originVerifyToken] ?? '';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * In AWS the API is reached through CloudFront and its WAF only: CloudFront adds the origin-verify
 * header, a request sent to the API's own address lacks it. Digests make the comparison constant-time
 * whatever the length of what was sent.
 */
function cameThroughCloudFront(event: HttpEvent): boolean {
  if (!ORIGIN_VERIFY_TOKEN) return true;
  const given = event.headers?.[HEADERS.originVerify];
  if (given === undefined) return false;
  return timingSafeEqual(digest(given), digest(ORIGIN_VERIFY_TOKEN));
}

/** The same headers as the gateway's own refusals (shared: API_SECURITY_HEADERS). */
const SECURITY_HEADERS = API_SECURITY_HEADERS;

/** The caller's request id when it is a sane token, else API Gateway's, else a new one. */
function txIdOf(event: HttpEvent): string {
  const given = event.headers?.[HEADERS.requestId];
  if (given && REQUEST_ID_PATTERN.test(given)) return given;
  return event.requestContext?.requestId || randomUUID();
}

function corsHeaders(event: HttpEvent): Record<string, string> {
  const origin = event.headers?.origin;
  if (!origin || !WEB_ORIGINS.includes(origin)) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': CORS.exposeHeaders.join(','),
    vary: 'Origin',
  };
}

function parseJsonBody(event: HttpEvent): unknown {
  if (event.body === undefined || event.body === null || event.body === '') return undefined;
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  try {
    return JSON.parse(raw);
  } catch {
    throw new BadRequestError('ERROR_INVALID_BODY');
  }
}

/**
 * For a module that serves several routes: picks the manifest entry an API Gateway event was routed to,
 * among `routes` (passed in, so that a handler of one route does not bundle the whole manifest).
 */
export function byRouteKey(routes: readonly RouteDef[]): (event: HttpEvent) => RouteDef {
  const routesByKey = new Map(routes.map((def) => [`${def.method} ${def.path}`, def]));
  return (event) => {
    const def = routesByKey.get(event.routeKey);
    if (!def) throw new Error(`Route ${event.routeKey} is not in the manifest`);
    return def;
  };
}

interface State {
  txId: string;
  log: RequestLog;
  started: number;
  route?: RouteDef;
}

function respond(event: HttpEvent, state: State, statusCode: number, payload: unknown): HttpResult {
  return {
    statusCode,
    headers: { ...SECURITY_HEADERS, ...corsHeaders(event), [HEADERS.requestId]: state.txId },
    body: statusCode === 204 ? '' : JSON.stringify(payload),
  };
}

/** Maps every failure to the one error body; only PortalErrors reveal anything to the caller. */
function errorResult(event: HttpEvent, state: State, error: unknown): HttpResult {
  if (error instanceof PortalError) {
    state.log.info('request refused', { statusCode: error.statusCode, errors: error.errors });
    const body: ErrorBody = {
      statusCode: error.statusCode,
      message: error.message,
      txId: state.txId,
      errors: error.errors,
    };
    const result = respond(event, state, error.statusCode, body);
    return { ...result, headers: { ...result.headers, ...error.headers } };
  }
  state.log.error('unexpected failure', error as Error);
  const body: ErrorBody = { statusCode: 500, message: UNEXPECTED_ERROR_MESSAGE, txId: state.txId, errors: [] };
  return respond(event, state, 500, body);
}

/**
 * The one HTTP wrapper: request id, structured logs, identity and roles from the JWT claims,
 * manifest validation, response projection through the response schema and the caller's role, errors and headers.
 * Pass the route, or byRouteKey(routes) for a module that serves several routes.
 */
export function httpHandler<R extends RouteDef>(
  route: R | ((event: HttpEvent) => R),
  impl: (request: HttpRequest<R>) => Promise<RouteResponse<R>>,
) {
  const states = new WeakMap<HttpEvent, State>();

  const portal: MiddlewareObj<HttpEvent, HttpResult, Error, Context> = {
    before: (request) => {
      const event = request.event;
      const txId = txIdOf(event);
      annotate({ [ATTR_TX_ID]: txId });
      const log = withKeys({ txId, routeKey: event.routeKey });
      states.set(event, { txId, started: Date.now(), log });
      if (!cameThroughCloudFront(event)) {
        log.warn('request without a valid origin-verify header: not sent through CloudFront', {
          sourceIp: event.requestContext?.http?.sourceIp,
        });
        throw new ForbiddenError('ERROR_DIRECT_ACCESS_FORBIDDEN');
      }
    },
    onError: (request) => {
      const state = states.get(request.event) ?? {
        txId: randomUUID(),
        started: Date.now(),
        log: logger,
      };
      request.response = errorResult(request.event, state, request.error);
    },
    after: (request) => {
      const state = states.get(request.event);
      state?.log.info('request served', {
        statusCode: request.response?.statusCode,
        durationMs: Date.now() - state.started,
      });
    },
  };

  const handler = middy<HttpEvent, HttpResult, Error, Context>()
    .use(observability())
    .use(portal)
    .handler(async (event) => {
      const state = states.get(event)!;
      const def = typeof route === 'function' ? route(event) : route;
      state.route = def;
      const caller =
        def.auth === 'jwt'
          ? resolveCaller(
              def,
              event.requestContext?.authorizer?.jwt?.claims,
              event.headers?.[HEADERS.companyId],
              state.txId,
              event.headers?.[HEADERS.apiClient],
            )
          : null;
      if (caller) await assertCallerEnabled(caller);
      const request = {
        route: def,
        path: parsePart(def.request.path, event.pathParameters ?? {}, def.request.parameterCodes),
        query: parsePart(def.request.query, event.queryStringParameters ?? {}, def.request.parameterCodes),
        body: parsePart(def.request.body, parseJsonBody(event), def.request.parameterCodes),
        caller,
        txId: state.txId,
        log: state.log,
        event,
      } as HttpRequest<R>;
      const result = await impl(request);
      // The response schema is also a projection: nothing outside the contract leaves the function, and a supplier
      // (or its API client) gets the answer without what the schema declares staff-only (schemas/visibility.ts).
      const projected = def.response.safeParse(result);
      if (!projected.success) {
        throw new Error(`Response of ${def.id} breaks its schema: ${projected.error.message}`);
      }
      const answer = caller ? forLevel(def.response, projected.data, caller.level) : projected.data;
      return respond(event, state, def.successStatus, answer);
    });
  // The request's span wraps everything, and is exported before the response leaves (telemetry.ts).
  return telemetry.invocation(handler);
}
