import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  API_SECURITY_HEADERS,
  CORS,
  HEADERS,
  MAX_REQUEST_HEADER_BYTES,
  REQUEST_ID_PATTERN,
  ROUTES,
  ROUTE_NOT_FOUND,
  formatErrorMessage,
  type ErrorBody,
  type ErrorCode,
  type RouteDef,
} from '@portal/shared';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ROOT_DIR } from './config.js';
import { createJwtAuthorizer } from './gateway-authorizer.js';
import { apiGatewayEvent, readBody } from './gateway-event.js';
import { listen, type RunningService } from '../stand-ins/types.js';

type Handler = (
  event: APIGatewayProxyEventV2WithJWTAuthorizer,
  context: unknown,
) => Promise<APIGatewayProxyStructuredResultV2>;

export interface GatewayOptions {
  readonly port: number;
  readonly host: string;
  readonly jwksUrl: string;
  readonly issuer: string;
  /** The web app client id: API Gateway's JWT authorizer audience. */
  readonly audience: string;
  /**
   * The active API clients' ids: in AWS the authorizer's audience lists them beside the web client (the API clients'
   * use case rewrites it, docs/adr/0034-api-clients.md); here they are read where that use case reads them.
   */
  readonly machineAudience?: (clientId: string) => Promise<boolean>;
  readonly webOrigins: readonly string[];
  readonly region: string;
  /** One line per request on `log` (default true; LOCAL_API_ACCESS_LOG=off): what API Gateway's access log says. */
  readonly accessLog?: boolean;
  readonly log?: (line: string) => void;
}

interface CompiledRoute {
  readonly def: RouteDef;
  readonly pattern: RegExp;
  readonly names: string[];
  readonly handler: Handler;
}

/** API Gateway's integration timeout for HTTP APIs. */
const INTEGRATION_TIMEOUT_MS = 30_000;
/** How long a connection whose request the parser refused may go on sending before it is cut off. */
const REFUSED_CLIENT_LINGER_MS = 10_000;

function compile(def: RouteDef, handler: Handler): CompiledRoute {
  const names: string[] = [];
  const source = def.path
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(param[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { def, pattern: new RegExp(`^${source}$`), names, handler };
}

export async function loadHandler(def: Pick<RouteDef, 'handler'>): Promise<Handler> {
  const file = path.join(ROOT_DIR, 'functions/src/handlers', `${def.handler}.ts`);
  const module = (await import(pathToFileURL(file).href)) as { handler?: Handler };
  if (typeof module.handler !== 'function') throw new Error(`${file} does not export a handler`);
  return module.handler;
}

/** The manifest's route for a request, its path parameters decoded; the parameter whose escape is malformed. */
function matchRoute(
  compiled: readonly CompiledRoute[],
  method: string,
  pathname: string,
): { match: { route: CompiledRoute; params: Record<string, string> } | undefined } | { malformed: string } {
  for (const route of compiled) {
    if (route.def.method !== method) continue;
    const found = route.pattern.exec(pathname);
    if (!found) continue;
    const params: Record<string, string> = {};
    for (const [i, name] of route.names.entries()) {
      const value = decodeSegment(found[i + 1]!);
      if (value === null) return { malformed: name };
      params[name] = value;
    }
    return { match: { route, params } };
  }
  return { match: undefined };
}

/** A path segment's percent-escapes decoded; null when they are malformed (%zz, a cut escape, invalid UTF-8). */
function decodeSegment(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

const MALFORMED_ESCAPE = 'contiene una secuencia de escape (%) mal formada';

/**
 * A request's id, 16 hex digits: from Node's buffered UUIDs, which draw on the system's randomness once per 128 ids
 * (randomBytes went to it on every request).
 */
function newRequestId(): string {
  return randomUUID().replaceAll('-', '').slice(0, 16);
}

/** The API's error body for the gateway's own refusals, as the functions answer theirs. */
function errorBody(statusCode: number, txId: string, code: ErrorCode, parameters: Record<string, unknown> = {}) {
  const body: ErrorBody = {
    statusCode,
    message: formatErrorMessage(code, parameters),
    txId,
    errors: [{ code, parameters }],
  };
  return JSON.stringify(body);
}

/** What Node's HTTP parser refused before any request existed: headers too large, or no HTTP at all. */
function clientErrorResponse(error: NodeJS.ErrnoException): string {
  const txId = newRequestId();
  const [status, reason, body] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', errorBody(431, txId, 'ERROR_REQUEST_HEADERS_TOO_LARGE')]
      : [
          400,
          'Bad Request',
          errorBody(400, txId, 'ERROR_INVALID_PARAMETER', {
            parameter: 'solicitud',
            reason: 'no es una solicitud HTTP válida',
          }),
        ];
  const headers = { ...API_SECURITY_HEADERS, [HEADERS.requestId]: txId, 'apigw-requestid': txId };
  return [
    `HTTP/1.1 ${status} ${reason}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

/** The route's function, cut off at API Gateway's integration timeout. */
async function invokeWithTimeout(
  target: { readonly handler: Handler; readonly functionName: string },
  event: APIGatewayProxyEventV2WithJWTAuthorizer,
  requestId: string,
): Promise<APIGatewayProxyStructuredResultV2> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      target.handler(event, { awsRequestId: requestId, functionName: target.functionName }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('integration timeout')), INTEGRATION_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The local stand-in for API Gateway HTTP API: the manifest's routes, the same handlers, v2 events,
 * and the JWT authorizer's checks (signature by the pool's JWKS, issuer, audience or client_id,
 * expiry). Its refusal of a missing or bad token carries API Gateway's own body, as in AWS; its other
 * refusals (malformed escapes, headers or body too large) carry the API's error body and headers. A request no
 * route matches goes, as in AWS, to the `$default` route's function (ROUTE_NOT_FOUND), which answers the 404.
 */
export async function startGateway(options: GatewayOptions): Promise<RunningService> {
  const compiled: CompiledRoute[] = [];
  for (const def of ROUTES) compiled.push(compile(def, await loadHandler(def)));
  const defaultHandler = await loadHandler(ROUTE_NOT_FOUND);
  const authorize = createJwtAuthorizer(options);
  const log = options.log ?? (() => undefined);

  function corsFor(origin: string | undefined): Record<string, string> {
    if (!origin || !options.webOrigins.includes(origin)) return {};
    return {
      'access-control-allow-origin': origin,
      'access-control-expose-headers': CORS.exposeHeaders.join(','),
      vary: 'Origin',
    };
  }

  async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const requestId = newRequestId();
    const started = Date.now();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toUpperCase();
    const origin = req.headers.origin;
    const send = (status: number, headers: Record<string, string>, body: string | Buffer) => {
      res.writeHead(status, { 'apigw-requestid': requestId, ...corsFor(origin), ...headers });
      res.end(body);
      if (options.accessLog !== false) log(`${method} ${url.pathname} ${status} ${Date.now() - started}ms`);
    };
    const json = (status: number, message: string) =>
      send(status, { 'content-type': 'application/json' }, JSON.stringify({ message }));
    const given = req.headers[HEADERS.requestId];
    const txId = typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : requestId;
    const refuse = (status: number, code: ErrorCode, parameters: Record<string, unknown> = {}) =>
      send(status, { ...API_SECURITY_HEADERS, [HEADERS.requestId]: txId }, errorBody(status, txId, code, parameters));

    if (method === 'OPTIONS' && req.headers['access-control-request-method']) {
      const allowed = origin && options.webOrigins.includes(origin);
      return send(
        204,
        allowed
          ? {
              'access-control-allow-methods': CORS.allowMethods.join(','),
              'access-control-allow-headers': CORS.allowHeaders.join(','),
              'access-control-max-age': String(CORS.maxAgeSeconds),
            }
          : {},
        '',
      );
    }

    const found = matchRoute(compiled, method, url.pathname);
    if ('malformed' in found)
      return refuse(400, 'ERROR_INVALID_PARAMETER', { parameter: found.malformed, reason: MALFORMED_ESCAPE });
    const { match } = found;
    // API Gateway refuses a path it cannot decode before looking for a route.
    if (!match && url.pathname.split('/').some((segment) => decodeSegment(segment) === null)) {
      return refuse(400, 'ERROR_INVALID_PARAMETER', { parameter: 'path', reason: MALFORMED_ESCAPE });
    }
    // No route: the `$default` route (no authorizer), whose function answers 404 ERROR_ROUTE_NOT_FOUND.
    const target = match
      ? {
          routeKey: `${match.route.def.method} ${match.route.def.path}`,
          functionName: match.route.def.id,
          handler: match.route.handler,
          pathParameters: match.route.names.length ? match.params : undefined,
        }
      : { routeKey: '$default', functionName: ROUTE_NOT_FOUND.id, handler: defaultHandler, pathParameters: undefined };

    let claims: Record<string, string> | null = null;
    if (match?.route.def.auth === 'jwt') {
      claims = await authorize(req.headers.authorization);
      if (!claims) return json(401, 'Unauthorized');
    }

    let raw: Buffer;
    try {
      raw = await readBody(req);
    } catch {
      return refuse(413, 'ERROR_REQUEST_TOO_LARGE');
    }
    const event = apiGatewayEvent(req, { url, method, requestId }, target, claims, raw);

    try {
      const result = await invokeWithTimeout(target, event, requestId);
      const resultHeaders: Record<string, string> = {};
      for (const [name, value] of Object.entries(result.headers ?? {})) resultHeaders[name] = String(value);
      const body = result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : (result.body ?? '');
      send(result.statusCode ?? 200, resultHeaders, body);
    } catch (error) {
      log(`handler failure on ${event.routeKey}: ${(error as Error).message}`);
      if ((error as Error).message === 'integration timeout') json(503, 'Service Unavailable');
      else json(500, 'Internal Server Error');
    }
  }

  const server = http.createServer({ maxHeaderSize: MAX_REQUEST_HEADER_BYTES }, (req, res) => {
    serve(req, res).catch((error: unknown) => {
      log(`gateway failure: ${(error as Error).message}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Internal Server Error' }));
    });
  });
  // Node's parser reports the same error again for every later chunk of the refused request. The first is answered;
  // what the client still sends is then read and dropped until it closes (or lingers too long). Destroying the socket
  // with that data unread resets the connection, and a client still writing its body (a POST with a 12 KB query)
  // failed with EPIPE before reading the 431.
  const answered = new WeakSet<object>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (answered.has(socket)) return;
    if (!socket.writable || socket.destroyed) return void socket.destroy();
    answered.add(socket);
    socket.end(clientErrorResponse(error));
    if (socket instanceof net.Socket) socket.setTimeout(REFUSED_CLIENT_LINGER_MS, () => socket.destroy());
  });
  return listen('api', server, options.port, options.host);
}
