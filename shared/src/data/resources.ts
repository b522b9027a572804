/**
 * Buckets and queues, with the environment variable through which each reaches the functions.
 * CDK creates them from here; the local stage creates the same names on its stand-ins.
 */
export interface QueueDef {
  readonly id: string;
  readonly purpose: string;
  readonly env: string;
  /** Seconds a received message stays invisible; at least six times the consumer's timeout. */
  readonly visibilityTimeoutSeconds: number;
  /** Receives before a message is moved to the queue's DLQ. */
  readonly maxReceiveCount: number;
  readonly batchSize: number;
  /** Worker module under functions/src/workers, or null until its consumer lands. */
  readonly consumer: string | null;
  readonly consumerTimeoutSeconds: number;
}

export const QUEUES = {
  sunatValidation: {
    id: 'SunatValidation',
    purpose: 'Validación de comprobantes en SUNAT',
    env: 'SUNAT_QUEUE_URL',
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    batchSize: 10,
    consumer: 'sunat-validation' as string | null,
    consumerTimeoutSeconds: 30,
  },
  miroRequests: {
    id: 'MiroRequests',
    purpose: 'Solicitudes de MIRO a SAP',
    env: 'MIRO_QUEUE_URL',
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    batchSize: 5,
    consumer: 'miro-requests' as string | null,
    consumerTimeoutSeconds: 30,
  },
  notifications: {
    id: 'Notifications',
    purpose: 'Notificaciones y correos',
    env: 'NOTIFICATIONS_QUEUE_URL',
    visibilityTimeoutSeconds: 120,
    maxReceiveCount: 5,
    batchSize: 10,
    consumer: 'notifications' as string | null,
    consumerTimeoutSeconds: 20,
  },
} as const satisfies Record<string, QueueDef>;

/**
 * Jobs run on a timer: an EventBridge rule in AWS, a timer on the local stage (functions/src/jobs/<handler>.ts)
 * every `localEverySeconds` when given (else everyMinutes).
 */
export const SCHEDULES = {
  paymentSync: { id: 'PaymentSync', handler: 'sync-payments', everyMinutes: 15 },
  /**
   * Drives every outbox to an end: sends again the queue messages committed but not sent, and the MIRO
   * postings still open past their lease or backoff (reading back from SAP what was posted but not recorded).
   */
  outboxSweeper: { id: 'OutboxSweeper', handler: 'sweep-outbox', everyMinutes: 1, localEverySeconds: 3 },
  /**
   * The Ley 29623 conformity clocks (docs/ap-conformity.md): the reminders two days before and on the last day, and
   * the presumed conformity once the last day ended. Every step is due at the start of a Lima day.
   */
  acquirerConformity: {
    id: 'AcquirerConformityClock',
    handler: 'run-acquirer-conformity-clock',
    everyMinutes: 15,
    localEverySeconds: 5,
  },
} as const;

export const BUCKETS = {
  documents: { id: 'Documents', env: 'DOCUMENTS_BUCKET' },
} as const;

/** Environment variables every function reads once at cold start. */
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
} as const;

/** Physical names on the local stage (in AWS, CDK chooses them). */
export function localName(stage: string, logicalId: string): string {
  return `portal-${stage}-${logicalId}`.toLowerCase();
}
