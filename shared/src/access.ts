/**
 * What one function touches, declared beside its route (RouteDef.uses), queue consumer (QUEUES) or job
 * (SCHEDULES). CDK grants exactly this and sets exactly the environment it implies (functionEnvironment in
 * runtime-env.ts); tests check the grants in the template and the declaration against the modules the function
 * imports. A declaration too small fails at run time in AWS only (the local stage grants everything), so it is
 * derived from the code path, not from the route's name.
 */
export interface FunctionUses {
  /**
   * The single table: 'read' (GetItem, Query…), 'write' (also PutItem, UpdateItem, DeleteItem and transactions).
   * Every signed-in route reads it at least: the wrapper checks the caller against the disabled accounts.
   */
  readonly table: TableAccess;
  /** Operations on the documents bucket. */
  readonly documents?: readonly DocumentOperation[];
  /** Queues it sends to (directly, or through the outbox of queue messages). */
  readonly queues?: readonly QueueKey[];
  /**
   * The Cognito operations it calls on the portal's user pool with IAM credentials (`cognito-idp:<operation>`).
   * ForgotPassword is public: no IAM, not listed.
   */
  readonly userPool?: readonly UserPoolOperation[];
  /** Sends e-mail through SES (the portal's sender and configuration set). */
  readonly email?: boolean;
  /** Talks to S/4HANA (its endpoint, company codes and credentials secret). */
  readonly sap?: boolean;
  /** Talks to SUNAT's validation API (its endpoints and credentials secret). */
  readonly sunat?: boolean;
  /**
   * Counts an API client's calls (the per-client rate limit, RATE# items of the table): UpdateItem on those keys
   * only. Set by machineRoute() on the routes a machine client may call.
   */
  readonly apiClientRate?: boolean;
  /** Rewrites the API's JWT authorizer audience (the active API clients' ids): GetAuthorizer and UpdateAuthorizer. */
  readonly apiAuthorizer?: boolean;
  /**
   * Reads and deletes the raw e-mails under `inbound-mail/` of the inbound-mail bucket (docs/adr/0035-mail-intake.md),
   * and knows the group's intake domain.
   */
  readonly inboundMail?: boolean;
}

export type TableAccess = 'none' | 'read' | 'write';
/** The product's queues (QUEUES is keyed by exactly these). */
export type QueueKey =
  'sunatValidation' | 'miroRequests' | 'notifications' | 'exports' | 'inboundMail' | 'intakeBatches';

/**
 * What a function does with the documents bucket:
 * - `read`: HEAD and the first bytes of an object (needs ListBucket too, so that a missing key is a 404, not a 403);
 * - `delete`: deletes an object (a refused upload; versioning keeps the old version);
 * - `presignUpload`: signs the browser's POST policy (the upload is then made with the function's s3:PutObject);
 * - `presignDownload`: signs a download link (made with the function's s3:GetObject).
 * - `exportWrite`: writes a list's export under exports/ (multipart upload; s3:PutObject on that prefix only);
 * - `exportDownload`: signs the download link of an export (s3:GetObject on exports/ only).
 */
export const DOCUMENT_OPERATIONS = [
  'read',
  'delete',
  'presignUpload',
  'presignDownload',
  'exportWrite',
  'exportDownload',
] as const;
export type DocumentOperation = (typeof DOCUMENT_OPERATIONS)[number];

/** Cognito user-pool operations a function may call with IAM credentials (`cognito-idp:<operation>`). */
export const USER_POOL_OPERATIONS = [
  'ListUsers',
  'AdminGetUser',
  'AdminCreateUser',
  'AdminUpdateUserAttributes',
  'AdminDeleteUserAttributes',
  'AdminSetUserPassword',
  'AdminDisableUser',
  'AdminEnableUser',
  'AdminUserGlobalSignOut',
  'CreateUserPoolClient',
  'DeleteUserPoolClient',
] as const;
export type UserPoolOperation = (typeof USER_POOL_OPERATIONS)[number];

/** Touches nothing but its code (liveness, the OpenAPI document, the 404 of unknown routes). */
export const USES_NOTHING = { table: 'none' } as const satisfies FunctionUses;
/** Reads the table only: every signed-in route that only looks (the wrapper's disabled-account check included). */
export const READS_TABLE = { table: 'read' } as const satisfies FunctionUses;
