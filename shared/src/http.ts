/** Request headers every call of the web app carries (spec §7). Names are lower case, as API Gateway delivers them. */
export const HEADERS = {
  requestId: 'x-request-id',
  companyId: 'x-company-id',
  consumerId: 'x-consumer-id',
  /** Set by CloudFront on requests it forwards to the API (never by browsers); see RUNTIME_ENV.originVerifyToken. */
  originVerify: 'x-origin-verify',
  /** The AWS WAF token the web app attaches once its challenge is solved (spec §1, app attestation). */
  wafToken: 'x-aws-waf-token',
  /**
   * Sent by a supplier's API client with its client id on every call (docs/integrators.md): the firewall's machine
   * path (no browser challenge, a rate limit per client) is chosen by it, and the API refuses a call whose header and
   * token disagree, so that it opens nothing to a browser's token.
   */
  apiClient: 'x-api-client',
} as const;

/** The web client's consumer id, sent in the consumer-id header. */
export const WEB_CONSUMER_ID = 'portal-web';

/** Request timeout of the web client (spec §9). */
export const REQUEST_TIMEOUT_MS = 30_000;

/** CORS rules of the API, used by the API Gateway definition, the local gateway and the wrapper. */
export const CORS = {
  allowHeaders: [
    'authorization',
    'content-type',
    HEADERS.requestId,
    HEADERS.companyId,
    HEADERS.consumerId,
    HEADERS.wafToken,
  ],
  allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
  exposeHeaders: [HEADERS.requestId],
  maxAgeSeconds: 600,
} as const;

/**
 * Headers of every API answer: the functions' (HTTP wrapper) and the gateway's own refusals alike. JSON that
 * no browser may sniff, frame or cache.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};

/** A caller's x-request-id is used as the txId when it is a sane token (else the gateway's request id). */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * API Gateway HTTP API's quota on the request line and headers together (10,240 bytes); the local gateway
 * refuses beyond it with 431.
 */
export const MAX_REQUEST_HEADER_BYTES = 10_240;

/**
 * The function behind the HTTP API's `$default` route (and the local gateway's answer to a request no route
 * matches): 404 ERROR_ROUTE_NOT_FOUND in the API's error body. Not a manifest route, so that the OpenAPI document,
 * the authorization matrix and the fuzzing do not list it; `handler` is its module under functions/src/handlers.
 */
export const ROUTE_NOT_FOUND = { id: 'routeNotFound', handler: 'system/route-not-found' } as const;
