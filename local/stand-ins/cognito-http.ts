import http from 'node:http';
import { outlastIdleClients } from './types.js';

/**
 * The HTTP plumbing of the Cognito proxy (cognito-proxy.ts): forwarding a request to cognito-local, answering
 * in the JSON protocol of the Cognito API with its CORS headers, and the small parsers the rewrites share.
 */

export const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';
export const AMZ_JSON = 'application/x-amz-json-1.1';
export const CORS_ALLOW_HEADERS =
  'content-type, x-amz-target, x-amz-user-agent, x-amz-date, x-amz-security-token, authorization, cache-control, amz-sdk-invocation-id, amz-sdk-request';
const CORS_EXPOSE_HEADERS = 'x-amzn-requestid, x-amzn-errortype, x-amzn-errormessage, date';

/** Where cognito-local listens (loopback). */
export interface Upstream {
  readonly host: string;
  readonly internalPort: number;
}

export interface UpstreamResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

/** A Cognito error answer: `__type` is the exception's name. */
export interface AuthRefusal {
  readonly __type: string;
  readonly message: string;
}

/** Sends the request to cognito-local with `body` (and, when given, another `x-amz-target`). */
export function forward(
  upstream: Upstream,
  req: http.IncomingMessage,
  body: Buffer,
  target?: string,
): Promise<UpstreamResponse> {
  const headers: http.OutgoingHttpHeaders = { ...req.headers, host: `${upstream.host}:${upstream.internalPort}` };
  delete headers['content-length'];
  delete headers['transfer-encoding'];
  delete headers.connection;
  if (body.length > 0 || req.method === 'POST') headers['content-length'] = body.length;
  if (target) {
    headers['x-amz-target'] = target;
    headers['content-type'] = AMZ_JSON;
  }
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: upstream.host, port: upstream.internalPort, method: req.method, path: req.url, headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 502, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.setTimeout(30_000, () => request.destroy(new Error('timeout de cognito-local')));
    request.end(body);
  });
}

export function send(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  upstreamHeaders: http.IncomingHttpHeaders,
  body: Buffer,
): void {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(upstreamHeaders)) {
    if (value === undefined) continue;
    if (['connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(name)) continue;
    if (name.startsWith('access-control-')) continue;
    headers[name] = value;
  }
  res.writeHead(status, { ...headers, ...corsHeaders(req), 'content-length': body.length });
  res.end(req.method === 'HEAD' ? undefined : body);
}

export function sendJson(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  payload: unknown,
  extraHeaders: Record<string, string> = {},
): void {
  send(req, res, status, { 'content-type': AMZ_JSON, ...extraHeaders }, Buffer.from(JSON.stringify(payload)));
}

/** A 400 with the exception's name in `x-amzn-ErrorType`, as Cognito answers its errors. */
export function sendRefusal(req: http.IncomingMessage, res: http.ServerResponse, refusal: AuthRefusal): void {
  sendJson(req, res, 400, refusal, { 'x-amzn-ErrorType': refusal.__type });
}

export function corsHeaders(req: http.IncomingMessage): Record<string, string> {
  const origin = headerValue(req, 'origin');
  return {
    'Access-Control-Allow-Origin': origin ?? '*',
    'Access-Control-Expose-Headers': CORS_EXPOSE_HEADERS,
    ...(origin ? { Vary: 'Origin' } : {}),
  };
}

export function headerValue(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function listen(server: http.Server, port: number, host: string): Promise<void> {
  outlastIdleClients(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
