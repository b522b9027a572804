import * as z from 'zod';
import { CorporateSso, defaultDomainPrefix, domainPrefixProblem } from './stage-sso.js';
import { EmailSender, HOST_NAME, IntakeMail, SES_RECEIVING_REGIONS } from './stage-mail.js';

export { fromHeader } from './stage-mail.js';

/** The retention periods CloudWatch Logs accepts, in days. */
export const LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
] as const;
export type LogRetentionDays = (typeof LOG_RETENTION_DAYS)[number];

/** Código Tributario art. 87: five years at least; ten (a retention agent's prescription period) unless told. */
export const MIN_RETENTION_YEARS = 5;
export const DEFAULT_RETENTION_YEARS = 10;

/** Days covering `years` calendar years whatever leap days they hold: a retention is never a day short. */
export function retentionDays(years: number): number {
  return years * 365 + Math.ceil(years / 4);
}

/** CloudFront serves custom domains only with an ACM certificate of us-east-1. */
const CERTIFICATE_ARN = /^arn:aws:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]{36}$/;

/**
 * Configuration of one AWS stage, selected with `cdk synth|deploy -c stage=NAME`.
 * Known stages carry their defaults here; any field can be overridden with `-c field=value`.
 */
export const StageConfig = z
  .object({
    stage: z
      .string()
      .regex(/^[a-z][a-z0-9-]{1,20}$/, 'stage: lowercase letters, digits and dashes, starting with a letter'),
    /** Absent: the stacks are environment-agnostic, so `synth` needs neither credentials nor lookups. */
    account: z
      .string()
      .regex(/^\d{12}$/, 'account: 12 digits')
      .optional(),
    /** Where the stage's stacks live; the WAF web ACL of CloudFront lives in us-east-1 whatever this says. */
    region: z
      .string({ error: 'region: the AWS region of the stage, e.g. sa-east-1' })
      .regex(/^[a-z]{2}(?:-[a-z]+)+-\d$/, 'region: an AWS region code such as sa-east-1 or us-east-1'),
    /** Group claim that makes a corporate SSO user ADMIN (spec §6). */
    adminGroupName: z.string().min(1).default('portal-admins'),
    /**
     * Origin the web app is served from for this stage (a custom domain, or a developer's Vite server).
     * The documents bucket (stateful stack) cannot see the stage's CloudFront domain, so browser uploads
     * work from this origin; the API additionally accepts the stage's own CloudFront origin.
     */
    webOrigin: z
      .url({ protocol: /^https?$/ })
      .refine((value) => new URL(value).origin === value, {
        message: 'webOrigin: scheme://host[:port] only, no path or trailing slash',
      })
      .optional(),
    /** The site's custom domain (CloudFront alternate name), e.g. proveedores.grupo.pe; absent: CloudFront's own. */
    domainName: z
      .string()
      .regex(HOST_NAME, 'domainName: a lowercase host name such as proveedores.grupo.pe (no scheme, no path)')
      .optional(),
    /** ACM certificate covering domainName, issued in us-east-1 (CloudFront reads certificates there only). */
    certificateArn: z
      .string()
      .regex(
        CERTIFICATE_ARN,
        'certificateArn: an ACM certificate ARN of us-east-1 (arn:aws:acm:us-east-1:<account>:certificate/<id>)',
      )
      .optional(),
    /** Keep data (table, buckets, user pool, queues) when the stack is deleted or a resource replaced. */
    retain: z.boolean(),
    /** SUNAT's OAuth2 token host and API host (a stage may point them at a test double). */
    sunatTokenUrl: z.url({ protocol: /^https?$/ }).default('https://api-seguridad.sunat.gob.pe'),
    sunatApiUrl: z.url({ protocol: /^https?$/ }).default('https://api.sunat.gob.pe'),
    /** S/4HANA's base URL (the OData services hang below it); its credentials live in the stateful stack's SAP secret. */
    sapBaseUrl: z.url({ protocol: /^https?$/ }).default('https://s4hana.example.com'),
    /** Company code that books each company of the group: `{ruc: companyCode}` (`-c sapCompanyCodes='{...}'`). */
    sapCompanyCodes: z
      .record(z.string().regex(/^\d{11}$/, 'sapCompanyCodes: keys are RUCs'), z.string().min(1))
      .default({}),
    /**
     * Corporate single sign-on of the staff (spec §1, §6): a federated provider of the user pool, reached through
     * the hosted UI. Absent or null: only e-mail and password (suppliers); no staff user can exist.
     */
    corporateSso: CorporateSso.nullish(),
    /**
     * Prefix of the hosted-UI domain https://{prefix}.auth.{region}.amazoncognito.com (unique per region across
     * AWS), created only with corporateSso. @default portal-proveedores-{stage}
     */
    domainPrefix: z.string().optional(),
    /** Sender of the portal's e-mail (functions and, with cognitoEmail SES, Cognito's codes). */
    emailSender: EmailSender,
    /**
     * Invoices by e-mail: the intake addresses' domain, received by SES in the stage's region (one of
     * SES_RECEIVING_REGIONS). Absent or null: the stage receives no e-mail (its worker and bucket exist, idle).
     */
    intakeMail: IntakeMail.nullish(),
    /**
     * Who delivers Cognito's own e-mail (verification and password-reset codes). COGNITO: Cognito's default sender,
     * limited to a few dozen e-mails a day, fine for dev. SES: emailSender through SES; Cognito refuses it until the
     * domain identity is verified, so a new stage deploys once with COGNITO first (docs/deploying.md).
     */
    cognitoEmail: z.enum(['COGNITO', 'SES'], { error: "cognitoEmail: 'COGNITO' or 'SES'" }).default('COGNITO'),
    /** Who receives the alarms (SNS e-mail subscriptions, confirmed by each recipient). `-c alarmEmails='["a@b.pe"]'`. */
    alarmEmails: z.array(z.email({ error: 'alarmEmails: a list of e-mail addresses' })).default([]),
    /**
     * Years the invoices' documents (every version of every object of the documents bucket) and the table's
     * backups are kept: Código Tributario art. 87 asks for five years, or the prescription period when longer,
     * which reaches ten years for a retention agent (docs/adr/0015-documents-kept.md).
     */
    retentionYears: z
      .number({ error: 'retentionYears: a whole number of years, 5 or more' })
      .int('retentionYears: a whole number of years, 5 or more')
      .min(
        MIN_RETENTION_YEARS,
        `retentionYears: at least ${MIN_RETENTION_YEARS} (Código Tributario art. 87: tax records are kept five years or the prescription period, if longer)`,
      )
      .max(100, 'retentionYears: at most 100')
      .default(DEFAULT_RETENTION_YEARS),
    /** Days CloudWatch keeps the logs of every function and of the API's access log. */
    logRetentionDays: z
      .literal(LOG_RETENTION_DAYS, {
        error: `logRetentionDays: one of CloudWatch's periods in days (${LOG_RETENTION_DAYS.join(', ')})`,
      })
      .default(30),
    /**
     * Cognito threat protection of password sign-ins (Plus feature plan): ENFORCED blocks compromised credentials
     * and risky sign-ins, AUDIT only records the risk, OFF keeps the pool on the Essentials plan.
     */
    threatProtection: z
      .enum(['ENFORCED', 'AUDIT', 'OFF'], { error: "threatProtection: 'ENFORCED', 'AUDIT' or 'OFF'" })
      .default('ENFORCED'),
    /** Requests one IP address may send in any 5-minute window before the WAF answers 429 (WAF's minimum is 10). */
    wafRateLimit: z
      .number({ error: 'wafRateLimit: a whole number of requests per IP address per 5 minutes' })
      .int('wafRateLimit: a whole number of requests per IP address per 5 minutes')
      .min(10, 'wafRateLimit: AWS WAF accepts 10 requests per 5 minutes at least')
      .max(2_000_000_000, 'wafRateLimit: AWS WAF accepts 2,000,000,000 at most')
      .default(1000),
    /** API Gateway stage throttling, all routes together: steady requests per second and burst. */
    apiThrottle: z
      .object({
        rateLimit: z.number().positive('apiThrottle.rateLimit: requests per second, more than 0'),
        burstLimit: z.number().int().min(1, 'apiThrottle.burstLimit: a whole number of requests, at least 1'),
      })
      .strict()
      .refine((throttle) => throttle.burstLimit >= throttle.rateLimit, {
        message: 'apiThrottle: burstLimit must be at least rateLimit',
      })
      .default({ rateLimit: 100, burstLimit: 200 }),
    /**
     * Generation of the origin-verify value CloudFront sends to the API: raising it replaces the secret, and with
     * it the header CloudFront adds and the value the functions expect, in one deploy (docs/deploying.md, rotation).
     */
    originVerifyGeneration: z
      .number({ error: 'originVerifyGeneration: a whole number, 1 or more' })
      .int('originVerifyGeneration: a whole number, 1 or more')
      .min(1, 'originVerifyGeneration: a whole number, 1 or more')
      .default(1),
  })
  .superRefine((config, ctx) => {
    if (config.intakeMail && !SES_RECEIVING_REGIONS.includes(config.region)) {
      ctx.addIssue({
        code: 'custom',
        path: ['intakeMail'],
        message:
          `intakeMail: SES does not receive e-mail in ${config.region}; it does in ${SES_RECEIVING_REGIONS.join(', ')}. ` +
          'Deploy the stage in one of them, or set -c intakeMail=none (docs/deploying.md, "Receiving invoices by e-mail")',
      });
    }
    const problem = domainPrefixProblem(config.domainPrefix ?? defaultDomainPrefix(config.stage));
    if (problem) ctx.addIssue({ code: 'custom', path: ['domainPrefix'], message: problem });
    if (config.domainName && !config.certificateArn) {
      ctx.addIssue({
        code: 'custom',
        path: ['certificateArn'],
        message: `certificateArn: domainName ${config.domainName} needs an ACM certificate of us-east-1 covering it`,
      });
    }
    if (config.certificateArn && !config.domainName) {
      ctx.addIssue({
        code: 'custom',
        path: ['certificateArn'],
        message: 'certificateArn: given without domainName; name the domain the certificate is for',
      });
    }
    const webOrigin = config.webOrigin ?? (config.domainName ? `https://${config.domainName}` : undefined);
    if (!webOrigin) {
      ctx.addIssue({
        code: 'custom',
        path: ['webOrigin'],
        message: 'webOrigin: required (the origin the site is served from), or give domainName to serve it there',
      });
      return;
    }
    if (config.corporateSso) {
      // Cognito accepts http:// callbacks for localhost only; the hosted UI sends the browser back to this origin.
      const origin = new URL(webOrigin);
      if (origin.protocol !== 'https:' && origin.hostname !== 'localhost') {
        ctx.addIssue({
          code: 'custom',
          path: ['webOrigin'],
          message: 'webOrigin: corporate SSO needs an https:// origin (Cognito allows http:// only for localhost)',
        });
      }
    }
  })
  .transform((config) => ({
    ...config,
    // Checked by superRefine: a given webOrigin, or the custom domain's.
    webOrigin: config.webOrigin ?? `https://${config.domainName ?? ''}`,
    corporateSso: config.corporateSso ?? null,
    intakeMail: config.intakeMail ?? null,
    domainPrefix: config.domainPrefix ?? defaultDomainPrefix(config.stage),
  }));
export type StageConfig = z.infer<typeof StageConfig>;
export type StageConfigInput = z.input<typeof StageConfig>;

export const DEFAULT_STAGE = 'dev';

/** The all-zero GUID of the dev stage's example tenant; the app warns while a stage still carries it. */
export const PLACEHOLDER_ID = '00000000-0000-0000-0000-000000000000';

/** Domain of the known stages' example sender; the app warns while a stage still sends from it. */
export const EXAMPLE_MAIL_DOMAIN = 'proveedores.example.com';

/** Defaults of the known stages, in one place. */
export const KNOWN_STAGES: Readonly<Record<string, Omit<StageConfigInput, 'stage'>>> = {
  dev: {
    region: 'us-east-1',
    webOrigin: 'http://localhost:5173',
    retain: false,
    emailSender: { address: `no-responder@${EXAMPLE_MAIL_DOMAIN}` },
    cognitoEmail: 'COGNITO',
    logRetentionDays: 30,
    // AUDIT rather than OFF: the Plus plan costs a few cents per active user, and dev shows the risk decisions
    // prod would enforce.
    threatProtection: 'AUDIT',
    wafRateLimit: 1000,
    // The shape of an Entra ID tenant (docs/deploying.md, "Corporate SSO"). The zero ids are placeholders: deploy with
    // -c corporateSso='{...}' naming the real tenant and app registration, or -c corporateSso=none.
    corporateSso: {
      type: 'OIDC',
      providerName: 'Corporativo',
      issuerUrl: `https://login.microsoftonline.com/${PLACEHOLDER_ID}/v2.0`,
      clientId: PLACEHOLDER_ID,
      clientSecretName: 'portal/dev/corporate-sso',
      groupsClaim: 'groups',
    },
  },
  prod: {
    // São Paulo, the region nearest to Lima.
    region: 'sa-east-1',
    webOrigin: 'https://proveedores.example.com',
    retain: true,
    emailSender: { address: `no-responder@${EXAMPLE_MAIL_DOMAIN}` },
    cognitoEmail: 'SES',
    logRetentionDays: 365,
    threatProtection: 'ENFORCED',
    wafRateLimit: 1000,
  },
};

/** Context keys a caller may override with `-c key=value`. */
const OVERRIDABLE = [
  'account',
  'region',
  'adminGroupName',
  'webOrigin',
  'retain',
  'sunatTokenUrl',
  'sunatApiUrl',
  'sapBaseUrl',
  'sapCompanyCodes',
  'corporateSso',
  'domainPrefix',
  'alarmEmails',
  'domainName',
  'certificateArn',
  'emailSender',
  'intakeMail',
  'cognitoEmail',
  'logRetentionDays',
  'retentionYears',
  'threatProtection',
  'wafRateLimit',
  'apiThrottle',
  'originVerifyGeneration',
] as const;

/** Context keys whose `-c` value is JSON text. */
const JSON_KEYS: ReadonlySet<string> = new Set([
  'sapCompanyCodes',
  'corporateSso',
  'alarmEmails',
  'emailSender',
  'intakeMail',
  'apiThrottle',
]);
/** Context keys whose `-c` value is a number. */
const NUMBER_KEYS: ReadonlySet<string> = new Set([
  'logRetentionDays',
  'retentionYears',
  'wafRateLimit',
  'originVerifyGeneration',
]);

/**
 * Builds the stage configuration from CDK context (`tryGetContext`), validating it once.
 * Unknown stages are allowed when every required field is given on the command line.
 */
export function resolveStageConfig(getContext: (key: string) => unknown): StageConfig {
  const stage = stringOrUndefined(getContext('stage')) ?? DEFAULT_STAGE;
  const defaults = KNOWN_STAGES[stage] ?? {};
  const overrides: Record<string, unknown> = {};
  for (const key of OVERRIDABLE) {
    const value = getContext(key);
    if (value === undefined || value === null || value === '') continue;
    // `-c retain=true` arrives as a string; cdk.json and programmatic context may pass a boolean.
    overrides[key] = key === 'retain' && typeof value === 'string' ? value === 'true' : value;
    // `-c sapCompanyCodes='{"<ruc>":"1000"}'` and `-c corporateSso='{"type":"OIDC",...}'` arrive as JSON text.
    if (JSON_KEYS.has(key) && typeof value === 'string') overrides[key] = parseJsonOr(value);
    // `-c corporateSso=none` (or JSON null) turns off a stage's default SSO.
    if (key === 'corporateSso' && (value === 'none' || overrides[key] === null)) overrides[key] = null;
    // `-c intakeMail=none` (or JSON null) turns off receiving e-mail.
    if (key === 'intakeMail' && (value === 'none' || overrides[key] === null)) overrides[key] = null;
    // `-c wafRateLimit=500` arrives as text; a non-number stays text so validation names the key.
    if (NUMBER_KEYS.has(key) && typeof value === 'string' && /^\d+$/.test(value)) overrides[key] = Number(value);
  }
  // A custom domain given without webOrigin serves the site there, not at the stage's default origin.
  const base: Record<string, unknown> = { ...defaults };
  if (overrides.domainName !== undefined && overrides.webOrigin === undefined) delete base.webOrigin;
  const parsed = StageConfig.safeParse({ ...base, ...overrides, stage });
  if (!parsed.success) {
    throw new Error(`Invalid configuration for stage '${stage}':\n${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

/**
 * Where the hosted UI may send the browser back: the web app's /login after sign-in, its root after sign-out.
 * Only the stage's configured webOrigin: the pool lives in the stateful stack, which cannot see the CloudFront
 * domain of the stateless one, and local origins (npm start) never reach an AWS stage.
 */
export function ssoRedirects(config: Pick<StageConfig, 'webOrigin'>): { signIn: string; signOut: string } {
  return { signIn: `${config.webOrigin}/login`, signOut: `${config.webOrigin}/` };
}

function parseJsonOr(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
