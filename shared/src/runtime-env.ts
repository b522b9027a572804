import type { FunctionUses } from './access.js';
import { BUCKETS, QUEUES } from './data/resources.js';
import { FILE_LINKS_ENV } from './files.js';

/**
 * The names of the environment variables the functions read, defined once: the adapters read them, the CDK
 * constructs set them, the local stage sets them. Buckets' and queues' own names sit beside their definitions
 * (BUCKETS, QUEUES), the download links' in FILE_LINKS_ENV.
 */
export const RUNTIME_ENV = {
  stage: 'STAGE',
  tableName: 'TABLE_NAME',
  webOrigin: 'WEB_ORIGIN',
  s3ForcePathStyle: 'S3_FORCE_PATH_STYLE',
  adminGroupName: 'ADMIN_GROUP_NAME',
  /** The user pool the administration calls manage (Cognito admin APIs). */
  userPoolId: 'USER_POOL_ID',
  /** The web app client: the password-reset e-mail is started for it (ForgotPassword). */
  userPoolClientId: 'USER_POOL_CLIENT_ID',
  /**
   * The value CloudFront puts in the origin-verify header of every API request it forwards (AWS stages):
   * when set, the wrapper refuses requests that did not come through CloudFront and its WAF.
   */
  originVerifyToken: 'ORIGIN_VERIFY_TOKEN',
  /** Sender and SES configuration set of the portal's e-mails. */
  emailSender: 'EMAIL_SENDER',
  emailConfigurationSet: 'EMAIL_CONFIGURATION_SET',
  /**
   * Seconds a function instance keeps the list of disabled accounts before reading it again (0-60; default
   * and most 60): a disabled account is refused within that time. The local stage sets a short one.
   */
  disabledUsersTtlSeconds: 'DISABLED_USERS_TTL_SECONDS',
  /** Calls an API client may make per minute (default API_CLIENT_RATE_DEFAULT); past them, 429 with Retry-After. */
  apiClientRateLimit: 'API_CLIENT_RATE_LIMIT',
  /** The HTTP API and its JWT authorizer, whose audience lists the active API clients (docs/adr/0034-api-clients.md). */
  apiId: 'API_ID',
  apiAuthorizerId: 'API_AUTHORIZER_ID',
  /** The OAuth2 token endpoint API clients ask for their tokens (the user pool domain's /oauth2/token). */
  apiTokenUrl: 'API_TOKEN_URL',
  /**
   * The share (0 to 1) of this function's invocations that start a trace of their own (docs/adr/0041-trace-sampling.md):
   * the API's reads set it low; unset, every invocation is traced. An invocation continuing a traced request (a
   * worker's message) is always traced.
   */
  traceSampleRatio: 'PORTAL_TRACE_SAMPLE_RATIO',
  /**
   * The share (0 to 1) of the API's reads (GET routes and the not-found route) that start a trace, in place of
   * traceSampleRatio for them: for a process that serves every route, the local stage (where it is unset but for the
   * benches: every read traced, for the tests). AWS sets traceSampleRatio on each read's function instead.
   */
  readTraceSampleRatio: 'PORTAL_READ_TRACE_SAMPLE_RATIO',
  /** The domain of the group's intake addresses, `facturas+<RUC>@<domain>` (stage configuration). */
  intakeMailDomain: 'INTAKE_MAIL_DOMAIN',
  /**
   * Documents of one zip taken in at once (1-32; default the runner's DEFAULT_CONCURRENCY). In AWS the zip's function
   * has its own CPU and waits mostly on DynamoDB and S3; the local stage, where every function shares one process,
   * sets fewer, so that one zip does not starve the other queues' workers.
   */
  intakeBatchConcurrency: 'INTAKE_BATCH_CONCURRENCY',
} as const;

/** An API client's calls per minute unless RUNTIME_ENV.apiClientRateLimit says otherwise. */
export const API_CLIENT_RATE_DEFAULT = 120;

/** What the SAP adapter (functions/src/adapters/sap.ts) reads once per cold start. */
export const SAP_ENV = {
  baseUrl: 'SAP_BASE_URL',
  /** JSON credentials (the local stage); see SapCredentials. */
  credentials: 'SAP_CREDENTIALS',
  /** ARN of a Secrets Manager secret holding the same JSON (AWS). */
  credentialsSecretArn: 'SAP_CREDENTIALS_SECRET_ARN',
  /** JSON map `{clientRuc: companyCode}`: which SAP company code books each company of the group. */
  companyCodes: 'SAP_COMPANY_CODES',
} as const;

/** What the SUNAT adapter (functions/src/adapters/sunat.ts) reads once per cold start. */
export const SUNAT_ENV = {
  tokenUrl: 'SUNAT_TOKEN_URL',
  apiUrl: 'SUNAT_API_URL',
  /** JSON map `{ruc: {clientId, clientSecret}}` (the local stage). */
  credentials: 'SUNAT_CREDENTIALS',
  /** ARN of a Secrets Manager secret holding the same JSON map (AWS). */
  credentialsSecretArn: 'SUNAT_CREDENTIALS_SECRET_ARN',
} as const;

/** Which kind of function: API handlers also read the CORS origins and the CloudFront origin-verify value. */
export type FunctionKind = 'api' | 'worker' | 'job';

/**
 * The variables a function of `kind` that touches `uses` needs, in AWS: CDK sets exactly these (plus the
 * telemetry's), no more. Knobs with a default (DISABLED_USERS_TTL_SECONDS, the local time scales) are not among
 * them.
 */
export function functionEnvironment(kind: FunctionKind, uses: FunctionUses): readonly string[] {
  const names = new Set<string>([RUNTIME_ENV.stage]);
  if (kind === 'api') names.add(RUNTIME_ENV.webOrigin).add(RUNTIME_ENV.originVerifyToken);
  if (uses.table !== 'none') names.add(RUNTIME_ENV.tableName);
  const documents = uses.documents ?? [];
  if (documents.length > 0) names.add(BUCKETS.documents.env).add(RUNTIME_ENV.s3ForcePathStyle);
  if (documents.includes('presignDownload') || documents.includes('exportDownload')) {
    names.add(FILE_LINKS_ENV.origin).add(FILE_LINKS_ENV.bucketDomain);
  }
  for (const key of uses.queues ?? []) names.add(QUEUES[key].env);
  if ((uses.userPool ?? []).length > 0) {
    names.add(RUNTIME_ENV.userPoolId).add(RUNTIME_ENV.userPoolClientId).add(RUNTIME_ENV.adminGroupName);
  }
  // The e-mails link to the portal (its first web origin).
  if (uses.email) names.add(RUNTIME_ENV.emailSender).add(RUNTIME_ENV.emailConfigurationSet).add(RUNTIME_ENV.webOrigin);
  if (uses.sap) names.add(SAP_ENV.baseUrl).add(SAP_ENV.credentialsSecretArn).add(SAP_ENV.companyCodes);
  if (uses.sunat) names.add(SUNAT_ENV.tokenUrl).add(SUNAT_ENV.apiUrl).add(SUNAT_ENV.credentialsSecretArn);
  if (uses.apiAuthorizer) names.add(RUNTIME_ENV.apiId).add(RUNTIME_ENV.apiAuthorizerId).add(RUNTIME_ENV.apiTokenUrl);
  if (uses.inboundMail) names.add(BUCKETS.inboundMail.env).add(RUNTIME_ENV.intakeMailDomain);
  return [...names].sort();
}

/**
 * How the local stage stands in for what only AWS has: secrets are given inline instead of by ARN (the
 * variable named instead), and what CloudFront and SES's configuration sets do has no local counterpart (null: left
 * unset). Without an origin-verify value every request is let in; without the files distribution, download links
 * go to the S3 stand-in; the local mailbox needs no configuration set.
 */
export const LOCAL_ENV_SUBSTITUTES: Readonly<Record<string, string | null>> = {
  [SAP_ENV.credentialsSecretArn]: SAP_ENV.credentials,
  [SUNAT_ENV.credentialsSecretArn]: SUNAT_ENV.credentials,
  [RUNTIME_ENV.originVerifyToken]: null,
  // The local gateway reads the active API clients itself: there is no authorizer to rewrite.
  [RUNTIME_ENV.apiId]: null,
  [RUNTIME_ENV.apiAuthorizerId]: null,
  [RUNTIME_ENV.emailConfigurationSet]: null,
  [FILE_LINKS_ENV.origin]: null,
  [FILE_LINKS_ENV.bucketDomain]: null,
};
