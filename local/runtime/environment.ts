import {
  BUCKETS,
  MIRO_POSTING,
  QUEUES,
  RUNTIME_ENV,
  SAP_ENV,
  SUNAT_CHECK,
  SUNAT_ENV,
  type QueueKey,
} from '@portal/shared';
import { CLOCK_OFFSET_FILE_ENV } from '../../functions/src/adapters/clock.js';
import type { LocalStageConfig } from './config.js';
import { LOCAL_INTAKE_MAIL_DOMAIN } from '../simulators/mail-dns.js';
import { LOCAL_CREDENTIALS } from '../stand-ins/types.js';
import { stageClockFile } from './stage-clock.js';

/** What the environment of the local stage's functions is made of, known before any service starts. */
export interface LocalEnvironmentInputs {
  readonly config: LocalStageConfig;
  readonly tableName: string;
  readonly documentsBucket: string;
  /** Where received e-mails land (the local SMTP server writes them, the inboundMail worker reads them). */
  readonly inboundMailBucket: string;
  /** The origins the web app is served on (CORS, and the e-mails' links). */
  readonly webOrigins: readonly string[];
  readonly adminGroupName: string;
  /** SAP's technical user at the simulator and the company codes of the group. */
  readonly sap: { readonly credentials: unknown; readonly companyCodes: Readonly<Record<string, string>> };
  /** Each company's SUNAT API credentials at the simulator. */
  readonly sunatCredentials: unknown;
  /** The variables a developer or a test run already set, for the knobs they may override. */
  readonly inherited?: NodeJS.ProcessEnv;
}

/**
 * The environment every handler, worker and job of the local stage reads: one process runs them all, so it is the
 * union of what each function gets in AWS (functionEnvironment), with the local stand-ins' endpoints and inline
 * credentials instead of secrets (LOCAL_ENV_SUBSTITUTES), and the local time scales. The handlers read their
 * configuration at import: it is complete before they load, but for what provisioning makes (provisionedEnvironment).
 */
export function localEnvironment(inputs: LocalEnvironmentInputs): Record<string, string> {
  const { host, ports, dataDir, stage, region } = inputs.config;
  const inherited = inputs.inherited ?? {};
  const url = (port: number) => `http://${host}:${port}`;
  return {
    AWS_REGION: region,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: url(ports.dynamodb),
    AWS_ENDPOINT_URL_S3: url(ports.s3),
    AWS_ENDPOINT_URL_SQS: url(ports.sqs),
    AWS_ENDPOINT_URL_SESV2: url(ports.mailbox),
    AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: url(ports.cognito),
    AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
    AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
    [RUNTIME_ENV.stage]: stage,
    [RUNTIME_ENV.tableName]: inputs.tableName,
    [RUNTIME_ENV.webOrigin]: inputs.webOrigins.join(','),
    [RUNTIME_ENV.s3ForcePathStyle]: 'true',
    [RUNTIME_ENV.adminGroupName]: inputs.adminGroupName,
    [RUNTIME_ENV.emailSender]: 'Portal de Proveedores <no-responder@proveedores.local>',
    // A disabled account or a revoked API client is refused on its next call, as in AWS (TTL 0).
    [RUNTIME_ENV.disabledUsersTtlSeconds]: inherited[RUNTIME_ENV.disabledUsersTtlSeconds] ?? '0',
    // An API client's calls per minute (120 in AWS): a test reaches the limit with few calls.
    [RUNTIME_ENV.apiClientRateLimit]: inherited[RUNTIME_ENV.apiClientRateLimit] ?? '60',
    // API clients ask the local Cognito front for their tokens (client credentials), as they ask the pool's domain in AWS.
    [RUNTIME_ENV.apiTokenUrl]: `${url(ports.cognito)}/oauth2/token`,
    [BUCKETS.documents.env]: inputs.documentsBucket,
    [BUCKETS.inboundMail.env]: inputs.inboundMailBucket,
    [RUNTIME_ENV.intakeMailDomain]: LOCAL_INTAKE_MAIL_DOMAIN,
    // Every function shares this process and its CPU: a zip of 200 documents, 16 at once, held a MIRO posting and the
    // notices 20 s behind it; 4 at once take the zip in as fast (docs/local-stage.md#one-process-for-every-function).
    [RUNTIME_ENV.intakeBatchConcurrency]: inherited[RUNTIME_ENV.intakeBatchConcurrency] ?? '4',
    [SAP_ENV.baseUrl]: url(ports.sap),
    [SAP_ENV.credentials]: JSON.stringify(inputs.sap.credentials),
    [SAP_ENV.companyCodes]: JSON.stringify(inputs.sap.companyCodes),
    // A failed MIRO attempt is tried again after 2 s, 4 s, 8 s … here (30 s, 60 s … in AWS), so tests need not wait minutes.
    [MIRO_POSTING.timeScaleEnv]: inherited[MIRO_POSTING.timeScaleEnv] ?? '2',
    // An invoice still waiting for SUNAT is looked at again after 5 s, 10 s … here (10 min, 20 min … in AWS).
    [SUNAT_CHECK.timeScaleEnv]: inherited[SUNAT_CHECK.timeScaleEnv] ?? '5',
    [SUNAT_ENV.tokenUrl]: url(ports.sunat),
    [SUNAT_ENV.apiUrl]: url(ports.sunat),
    [SUNAT_ENV.credentials]: JSON.stringify(inputs.sunatCredentials),
    POWERTOOLS_SERVICE_NAME: 'portal-proveedores',
    POWERTOOLS_LOG_LEVEL: inherited.POWERTOOLS_LOG_LEVEL ?? 'WARN',
    // Spans go to the stage's OTLP receiver, as they go to the ADOT collector layer in AWS (localhost:4318).
    OTEL_EXPORTER_OTLP_ENDPOINT: url(ports.otlp),
    OTEL_SERVICE_NAME: `portal-${stage}`,
    // No CloudWatch here: EMF metric lines would only fill the console.
    POWERTOOLS_METRICS_DISABLED: 'true',
    // The stage's one clock offset (npm run clock), read by every handler, worker and job through the clock port.
    [CLOCK_OFFSET_FILE_ENV]: stageClockFile(dataDir),
  };
}

/** What provisioning made: the queues' URLs and the user pool's ids (the handlers read these at first use). */
export function provisionedEnvironment(provisioned: {
  readonly queueUrls: Readonly<Record<QueueKey, string>>;
  readonly userPoolId: string;
  readonly userPoolClientId: string;
}): Record<string, string> {
  return {
    ...Object.fromEntries(
      (Object.keys(QUEUES) as QueueKey[]).map((key) => [QUEUES[key].env, provisioned.queueUrls[key]]),
    ),
    [RUNTIME_ENV.userPoolId]: provisioned.userPoolId,
    [RUNTIME_ENV.userPoolClientId]: provisioned.userPoolClientId,
  };
}
