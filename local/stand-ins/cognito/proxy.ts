import type { WriteStream } from 'node:fs';
import http from 'node:http';
import { adminUserGlobalSignOut, type ClientPermissions } from './access.js';
import type { MachineClients, NewPasswordChallenges } from './credentials.js';
import type { HostedUi } from './hosted-ui.js';
import {
  AUTH_OPERATIONS,
  CORS_ALLOW_HEADERS,
  TARGET_PREFIX,
  completeAuthenticationResult,
  corsHeaders,
  forward,
  getTokensFromRefreshToken,
  headerValue,
  listUsersPage,
  normaliseAuthError,
  parseJson,
  readBody,
  send,
  sendJson,
  sendRefusal,
  type Upstream,
} from './wire.js';

/**
 * The proxy in front of cognito-local: which request goes where. It forwards every request unchanged
 * except those cognito.ts lists; the rewrites themselves live in wire.ts, credentials.ts, access.ts and
 * hosted-ui.ts.
 */

export interface ProxyContext extends Upstream {
  /** The public endpoint, the tokens' issuer domain. */
  readonly endpoint: string;
  readonly log: WriteStream;
  readonly hostedUi: HostedUi;
  readonly challenges: NewPasswordChallenges;
  /** Access tokens, their scope and the app client's write permissions, checked as Cognito does. */
  readonly permissions: ClientPermissions;
  /** cognito-local's store (one JSON file per pool, clients.json). */
  readonly dbDir: string;
  /** App clients with a secret and their client-credentials tokens (credentials.ts). */
  readonly machine: MachineClients;
}

export function issuer(endpoint: string, userPoolId: string): string {
  return `${endpoint.replace(/\/+$/, '')}/${userPoolId}`;
}

export function jwksUrl(endpoint: string, userPoolId: string): string {
  return `${issuer(endpoint, userPoolId)}/.well-known/jwks.json`;
}

export function createProxy(ctx: ProxyContext): http.Server {
  return http.createServer((req, res) => {
    void handleProxyRequest(ctx, req, res).catch((error: unknown) => {
      if (!ctx.log.writableEnded)
        ctx.log.write(`[proxy] error atendiendo ${req.method} ${req.url}: ${String(error)}\n`);
      if (!res.headersSent) {
        sendJson(req, res, 502, {
          __type: 'InternalErrorException',
          message: 'El servidor Cognito local no respondió',
        });
      } else {
        res.destroy();
      }
    });
  });
}

async function handleProxyRequest(
  ctx: ProxyContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  if (req.method === 'OPTIONS') return answerPreflight(req, res);

  const body = await readBody(req);
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (await ctx.machine.handleToken(req, res, url, body)) return;
  if (await ctx.hostedUi.handle(req, res, url)) return;

  if (req.method === 'GET' && answerDiscovery(ctx, req, res, url)) return;

  const target = headerValue(req, 'x-amz-target');
  const operation = target?.startsWith(TARGET_PREFIX) ? target.slice(TARGET_PREFIX.length) : undefined;

  if (req.method === 'POST' && operation) {
    const refused = await ctx.permissions.check(operation, body);
    if (refused) {
      sendRefusal(req, res, refused);
      return;
    }
  }

  if (req.method === 'POST' && operation === 'CreateUserPoolClient') {
    const created = await ctx.machine.create(body, (without) => forward(ctx, req, without));
    if (created) {
      send(req, res, created.status, created.headers, created.body);
      return;
    }
  }

  if (req.method === 'POST' && operation === 'DeleteUserPoolClient') {
    const upstream = await forward(ctx, req, body);
    if (upstream.status === 200) await ctx.machine.deleted(body);
    send(req, res, upstream.status, upstream.headers, upstream.body);
    return;
  }

  if (req.method === 'POST' && operation === 'GetTokensFromRefreshToken') {
    await getTokensFromRefreshToken(ctx, req, res, body);
    return;
  }

  if (req.method === 'POST' && operation === 'AdminUserGlobalSignOut') {
    const answer = await adminUserGlobalSignOut(
      ctx.dbDir,
      async (name, input) => {
        const upstream = await forward(ctx, req, Buffer.from(JSON.stringify(input)), `${TARGET_PREFIX}${name}`);
        return { status: upstream.status, body: parseJson(upstream.body) };
      },
      parseJson(body),
    );
    const type = (answer.body as { __type?: string } | null)?.__type;
    sendJson(req, res, answer.status, answer.body, type ? { 'x-amzn-ErrorType': type } : {});
    return;
  }

  if (req.method === 'POST' && operation === 'ListUsers') {
    await listUsersPage(ctx, req, res, body);
    return;
  }

  if (req.method === 'POST' && operation === 'RespondToAuthChallenge') {
    const refused = ctx.challenges.check(body);
    if (refused) {
      sendRefusal(req, res, refused);
      return;
    }
  }

  const upstream = await forward(ctx, req, body);
  if (req.method === 'POST' && operation === 'InitiateAuth') {
    const refused =
      (await ctx.challenges.refuseDisabled(body, upstream)) ?? (await ctx.challenges.admit(body, upstream));
    if (refused) {
      sendRefusal(req, res, refused);
      return;
    }
  }
  if (req.method === 'POST' && operation && AUTH_OPERATIONS.has(operation)) {
    const disabled = operation === 'InitiateAuth' ? null : await ctx.challenges.refuseDisabled(body, upstream);
    if (disabled) {
      sendRefusal(req, res, disabled);
      return;
    }
    const normalised = normaliseAuthError(body, upstream);
    if (normalised) {
      sendRefusal(req, res, normalised);
      return;
    }
    const completed = completeAuthenticationResult(upstream);
    if (completed) {
      sendJson(req, res, 200, completed);
      return;
    }
  }
  send(req, res, upstream.status, upstream.headers, upstream.body);
}

/** A CORS preflight, answered by the proxy itself. */
function answerPreflight(req: http.IncomingMessage, res: http.ServerResponse): void {
  res.writeHead(204, {
    ...corsHeaders(req),
    'Access-Control-Allow-Methods': 'GET, HEAD, POST, OPTIONS',
    'Access-Control-Allow-Headers': headerValue(req, 'access-control-request-headers') ?? CORS_ALLOW_HEADERS,
    'Access-Control-Max-Age': '600',
    'Content-Length': '0',
  });
  res.end();
}

/** `GET /{userPoolId}/.well-known/openid-configuration` with the real issuer (cognito-local names localhost:9229). */
function answerDiscovery(ctx: ProxyContext, req: http.IncomingMessage, res: http.ServerResponse, url: URL): boolean {
  const discovery = /^\/([^/]+)\/\.well-known\/openid-configuration$/.exec(url.pathname);
  if (!discovery?.[1]) return false;
  const poolId = decodeURIComponent(discovery[1]);
  sendJson(req, res, 200, {
    issuer: issuer(ctx.endpoint, poolId),
    jwks_uri: jwksUrl(ctx.endpoint, poolId),
    id_token_signing_alg_values_supported: ['RS256'],
    subject_types_supported: ['public'],
    response_types_supported: ['code'],
  });
  return true;
}
