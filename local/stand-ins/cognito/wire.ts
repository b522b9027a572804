import http from 'node:http';
import { outlastIdleClients } from '../types.js';

/**
 * The wire protocol of the local Cognito front: forwarding a request to cognito-local, answering in the JSON
 * protocol of the Cognito API with its CORS headers, the small parsers, and the rewrites where cognito-local's
 * protocol differs from Cognito's (the error a failed sign-in gets, the fields of a sign-in's answer, ListUsers'
 * pages and GetTokensFromRefreshToken, aws-amplify v6's refresh, which cognito-local does not know).
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

/** The operations whose answers normaliseAuthError and completeAuthenticationResult rewrite. */
export const AUTH_OPERATIONS = new Set([
  'InitiateAuth',
  'AdminInitiateAuth',
  'RespondToAuthChallenge',
  'AdminRespondToAuthChallenge',
]);

/**
 * Cognito always answers ExpiresIn and TokenType beside the tokens; cognito-local leaves them out.
 * Returns the completed answer, or null when there is nothing to complete.
 */
export function completeAuthenticationResult(upstream: UpstreamResponse): Record<string, unknown> | null {
  if (upstream.status !== 200) return null;
  const answer = parseJson(upstream.body);
  if (!isRecord(answer) || !isRecord(answer.AuthenticationResult)) return null;
  const result = answer.AuthenticationResult;
  if (typeof result.AccessToken !== 'string') return null;
  if (typeof result.ExpiresIn === 'number' && typeof result.TokenType === 'string') return null;
  return {
    ...answer,
    AuthenticationResult: {
      ...result,
      ExpiresIn: typeof result.ExpiresIn === 'number' ? result.ExpiresIn : expiresIn(result.AccessToken),
      TokenType: typeof result.TokenType === 'string' ? result.TokenType : 'Bearer',
    },
  };
}

/**
 * cognito-local answers a wrong password with InvalidPasswordException (in Cognito that means a
 * password-policy violation) and an unknown user or a bad refresh token with "User not authorized".
 * Cognito answers NotAuthorizedException "Incorrect username or password." (user-existence errors
 * prevented) and "Invalid Refresh Token." respectively.
 */
export function normaliseAuthError(requestBody: Buffer, upstream: UpstreamResponse): AuthRefusal | null {
  if (upstream.status !== 400) return null;
  const payload = parseJson(upstream.body);
  if (!isRecord(payload)) return null;
  const request = parseJson(requestBody);
  const flow = isRecord(request) && typeof request.AuthFlow === 'string' ? request.AuthFlow : '';
  const passwordFlow =
    flow === 'USER_PASSWORD_AUTH' || flow === 'ADMIN_USER_PASSWORD_AUTH' || flow === 'ADMIN_NO_SRP_AUTH';
  const refreshFlow = flow === 'REFRESH_TOKEN_AUTH' || flow === 'REFRESH_TOKEN';
  const genericDenial = payload.__type === 'NotAuthorizedException' && payload.message === 'User not authorized';
  if (passwordFlow && (payload.__type === 'InvalidPasswordException' || genericDenial)) {
    return { __type: 'NotAuthorizedException', message: 'Incorrect username or password.' };
  }
  if (refreshFlow && genericDenial) return { __type: 'NotAuthorizedException', message: 'Invalid Refresh Token.' };
  return null;
}

/**
 * ListUsers pages: Cognito answers at most `Limit` (default and maximum 60) users and a PaginationToken
 * for the rest; cognito-local answers them all at once. Its order is stable (insertion order), so an
 * offset in the token pages it the way Cognito does.
 */
export async function listUsersPage(
  upstream: Upstream,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  body: Buffer,
): Promise<void> {
  const request = parseJson(body);
  if (!isRecord(request)) {
    send(req, res, 400, { 'content-type': AMZ_JSON }, Buffer.from('{"__type":"SerializationException"}'));
    return;
  }
  const { Limit, PaginationToken, ...rest } = request;
  const limit = typeof Limit === 'number' ? Limit : 60;
  if (!Number.isInteger(limit) || limit < 1 || limit > 60) {
    sendJson(req, res, 400, { __type: 'InvalidParameterException', message: 'Limit must be between 1 and 60' });
    return;
  }
  const offset = typeof PaginationToken === 'string' ? Number(Buffer.from(PaginationToken, 'base64url').toString()) : 0;
  if (!Number.isInteger(offset) || offset < 0) {
    sendJson(req, res, 400, { __type: 'InvalidParameterException', message: 'Invalid pagination token' });
    return;
  }
  const answered = await forward(upstream, req, Buffer.from(JSON.stringify(rest)));
  const answer = parseJson(answered.body);
  if (answered.status !== 200 || !isRecord(answer) || !Array.isArray(answer.Users)) {
    send(req, res, answered.status, answered.headers, answered.body);
    return;
  }
  const users = answer.Users.slice(offset, offset + limit);
  const next = offset + limit < answer.Users.length ? Buffer.from(String(offset + limit)).toString('base64url') : null;
  sendJson(req, res, 200, { ...answer, Users: users, ...(next ? { PaginationToken: next } : {}) });
}

/** What the refresh rewrite asks of the new-password guard (credentials.ts): a disabled user is refused. */
export interface DisabledUsers {
  refuseDisabled(requestBody: Buffer, upstream: UpstreamResponse): Promise<AuthRefusal | null>;
}

/** GetTokensFromRefreshToken → InitiateAuth REFRESH_TOKEN_AUTH, answered in GetTokensFromRefreshToken's shape. */
export async function getTokensFromRefreshToken(
  ctx: Upstream & { readonly challenges: DisabledUsers },
  req: http.IncomingMessage,
  res: http.ServerResponse,
  body: Buffer,
): Promise<void> {
  const request = parseJson(body);
  if (!isRecord(request)) {
    sendJson(req, res, 400, {
      __type: 'SerializationException',
      message: 'El cuerpo de la solicitud no es JSON válido',
    });
    return;
  }
  const refreshToken = typeof request.RefreshToken === 'string' ? request.RefreshToken : undefined;
  const clientId = typeof request.ClientId === 'string' ? request.ClientId : undefined;
  if (!refreshToken || !clientId) {
    sendJson(req, res, 400, {
      __type: 'InvalidParameterException',
      message: 'ClientId and RefreshToken are required',
    });
    return;
  }
  const authParameters: Record<string, string> = { REFRESH_TOKEN: refreshToken };
  if (typeof request.DeviceKey === 'string') authParameters.DEVICE_KEY = request.DeviceKey;
  const initiateAuth = {
    AuthFlow: 'REFRESH_TOKEN_AUTH',
    ClientId: clientId,
    AuthParameters: authParameters,
    ...(isRecord(request.ClientMetadata) ? { ClientMetadata: request.ClientMetadata } : {}),
  };
  const rewritten = Buffer.from(JSON.stringify(initiateAuth));
  const upstream = await forward(ctx, req, rewritten, `${TARGET_PREFIX}InitiateAuth`);
  const normalised =
    (await ctx.challenges.refuseDisabled(rewritten, upstream)) ?? normaliseAuthError(rewritten, upstream);
  if (normalised) {
    sendRefusal(req, res, normalised);
    return;
  }
  if (upstream.status !== 200) {
    send(req, res, upstream.status, upstream.headers, upstream.body);
    return;
  }
  const answer = parseJson(upstream.body);
  const result = isRecord(answer) && isRecord(answer.AuthenticationResult) ? answer.AuthenticationResult : undefined;
  if (!result || typeof result.AccessToken !== 'string' || typeof result.IdToken !== 'string') {
    sendJson(req, res, 500, {
      __type: 'InternalErrorException',
      message: 'Respuesta inesperada de cognito-local al renovar',
    });
    return;
  }
  sendJson(req, res, 200, {
    AuthenticationResult: {
      AccessToken: result.AccessToken,
      IdToken: result.IdToken,
      ExpiresIn: typeof result.ExpiresIn === 'number' ? result.ExpiresIn : expiresIn(result.AccessToken),
      TokenType: 'Bearer',
      // cognito-local does not rotate refresh tokens: the one presented stays valid.
      RefreshToken: typeof result.RefreshToken === 'string' ? result.RefreshToken : refreshToken,
    },
  });
}

/** Seconds an access token lives (exp - iat), 3600 when it cannot be read. */
function expiresIn(jwt: string): number {
  const payload = parseJson(Buffer.from(jwt.split('.')[1] ?? '', 'base64url'));
  if (isRecord(payload) && typeof payload.exp === 'number' && typeof payload.iat === 'number') {
    return payload.exp - payload.iat;
  }
  return 3600;
}
