import type http from 'node:http';
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';

/** The request as API Gateway hands it to a function: its body read within the limit, then the v2 event. */

const MAX_BODY_BYTES = 6 * 1024 * 1024;
const TEXT_TYPES = /^(application\/(json|xml|x-www-form-urlencoded)|text\/)/;

export function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is read and dropped, so that the client gets the 413 instead of a reset;
      // a sender that goes on far beyond it is cut off.
      if (size > MAX_BODY_BYTES * 4) req.destroy();
      else if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () =>
      size > MAX_BODY_BYTES ? reject(new Error('payload too large')) : resolve(Buffer.concat(chunks)),
    );
    req.on('error', reject);
  });
}

/** The v2 event of a request for a route (or `$default`), with the authorizer's claims. */
export function apiGatewayEvent(
  req: http.IncomingMessage,
  { url, method, requestId }: { url: URL; method: string; requestId: string },
  target: { routeKey: string; pathParameters: Record<string, string> | undefined },
  claims: Record<string, string> | null,
  raw: Buffer,
): APIGatewayProxyEventV2WithJWTAuthorizer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = name in query ? `${query[name]},${value}` : value;
  const isText = raw.length === 0 || TEXT_TYPES.test(headers['content-type'] ?? 'application/json');
  const now = new Date();
  return {
    version: '2.0',
    routeKey: target.routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(target.pathParameters ? { pathParameters: target.pathParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: req.headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: req.headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: target.routeKey,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
      authorizer: { principalId: '', integrationLatency: 0, jwt: { claims: claims ?? {}, scopes: [] } },
    },
    ...(raw.length ? { body: isText ? raw.toString('utf8') : raw.toString('base64') } : {}),
    isBase64Encoded: !isText,
  };
}
