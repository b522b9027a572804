/** Request headers every call of the web app carries (spec §7). Names are lower case, as API Gateway delivers them. */
export const HEADERS = {
  requestId: 'x-request-id',
  companyId: 'x-company-id',
  consumerId: 'x-consumer-id',
  /** Set by CloudFront on requests it forwards to the API (never by browsers); see RUNTIME_ENV.originVerifyToken. */
  originVerify: 'x-origin-verify',
  /** The AWS WAF token the web app attaches once its challenge is solved (spec §1, app attestation). */
  wafToken: 'x-aws-waf-token',
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
