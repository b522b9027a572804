import { z } from 'zod';

/** Words Cognito refuses in a hosted-UI domain prefix. */
const RESERVED_PREFIX_WORDS = ['aws', 'amazon', 'cognito'] as const;
/** Cognito's domain prefix: lowercase letters, digits and hyphens, 1-63 characters, no hyphen at either end. */
const DOMAIN_PREFIX = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The hosted-UI domain prefix a stage gets when it names none. */
export function defaultDomainPrefix(stage: string): string {
  return `portal-proveedores-${stage}`;
}

/** Why Cognito would refuse a domain prefix, or null when it is acceptable. */
export function domainPrefixProblem(prefix: string): string | null {
  if (!DOMAIN_PREFIX.test(prefix)) {
    return `domainPrefix '${prefix}': 1-63 lowercase letters, digits and hyphens, not starting or ending with a hyphen`;
  }
  const word = RESERVED_PREFIX_WORDS.find((reserved) => prefix.includes(reserved));
  return word ? `domainPrefix '${prefix}': Cognito does not allow the word '${word}' in a domain prefix` : null;
}

const providerName = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9.-]{2,31}$/,
    'corporateSso.providerName: 3-32 letters, digits, dots or hyphens, starting with a letter or digit',
  )
  .refine((name) => name.toUpperCase() !== 'COGNITO', {
    message: 'corporateSso.providerName: COGNITO is the user pool itself',
  })
  .default('Corporativo');

const https = (field: string) =>
  z.url({ protocol: /^https$/, error: `corporateSso.${field}: an https:// URL of the identity provider` });

/**
 * Corporate SSO through an OpenID Connect provider (Entra ID, Okta, Google Workspace...). The client secret is
 * read by CloudFormation from Secrets Manager at deploy time: the configuration only names the secret.
 */
const OidcSso = z
  .object({
    type: z.literal('OIDC'),
    providerName,
    /** Entra ID: https://login.microsoftonline.com/{tenant id}/v2.0 (Cognito reads its discovery document). */
    issuerUrl: https('issuerUrl'),
    clientId: z.string({ error: 'corporateSso.clientId: the application (client) id at the identity provider' }).min(1),
    /** Name of a Secrets Manager secret whose plain-text value is the OIDC client secret. */
    clientSecretName: z
      .string({
        error:
          'corporateSso.clientSecretName: name of the Secrets Manager secret holding the OIDC client secret (required for OIDC)',
      })
      .regex(/^[A-Za-z0-9/_+=.@-]{1,512}$/, 'corporateSso.clientSecretName: a Secrets Manager secret name'),
    /** A literal secret would end up in cdk.json, the shell history and the template: refused. */
    clientSecret: z
      .never({
        error:
          'corporateSso.clientSecret: never put the secret in configuration; store it in Secrets Manager and give clientSecretName',
      })
      .optional(),
    /** Claim carrying the user's groups; its value lands in custom:groups. */
    groupsClaim: z.string().min(1).default('groups'),
    /** Scopes Cognito asks the identity provider for. */
    scopes: z
      .array(z.string().regex(/^\S+$/, 'corporateSso.scopes: one scope per item, no spaces'))
      .refine((scopes) => scopes.includes('openid'), { message: "corporateSso.scopes: must include 'openid'" })
      .default(['openid', 'email', 'profile']),
  })
  .strict();

/** Corporate SSO through a SAML 2.0 provider (Entra ID, AD FS...), with the claim names those send. */
const SamlSso = z
  .object({
    type: z.literal('SAML'),
    providerName,
    metadataUrl: https('metadataUrl'),
    groupsClaim: z.string().min(1).default('http://schemas.microsoft.com/ws/2008/06/identity/claims/groups'),
  })
  .strict();

export const CorporateSso = z.discriminatedUnion('type', [OidcSso, SamlSso], {
  error: "corporateSso.type: 'OIDC' or 'SAML'",
});
export type CorporateSso = z.infer<typeof CorporateSso>;

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
    region: z.string().min(1).optional(),
    /** Group claim that makes a corporate SSO user ADMIN (spec §6). */
    adminGroupName: z.string().min(1).default('portal-admins'),
    /**
     * Origin the web app is served from for this stage (a custom domain, or a developer's Vite server).
     * The documents bucket (stateful stack) cannot see the stage's CloudFront domain, so browser uploads
     * work from this origin; the API additionally accepts the stage's own CloudFront origin.
     */
    webOrigin: z.url({ protocol: /^https?$/ }).refine((value) => new URL(value).origin === value, {
      message: 'webOrigin: scheme://host[:port] only, no path or trailing slash',
    }),
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
  })
  .superRefine((config, ctx) => {
    const problem = domainPrefixProblem(config.domainPrefix ?? defaultDomainPrefix(config.stage));
    if (problem) ctx.addIssue({ code: 'custom', path: ['domainPrefix'], message: problem });
    if (config.corporateSso) {
      // Cognito accepts http:// callbacks for localhost only; the hosted UI sends the browser back to this origin.
      const origin = new URL(config.webOrigin);
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
    corporateSso: config.corporateSso ?? null,
    domainPrefix: config.domainPrefix ?? defaultDomainPrefix(config.stage),
  }));
export type StageConfig = z.infer<typeof StageConfig>;
export type StageConfigInput = z.input<typeof StageConfig>;

export const DEFAULT_STAGE = 'dev';

/** The all-zero GUID of the dev stage's example tenant; the app warns while a stage still carries it. */
export const PLACEHOLDER_ID = '00000000-0000-0000-0000-000000000000';

/** Defaults of the known stages, in one place. */
export const KNOWN_STAGES: Readonly<Record<string, Omit<StageConfigInput, 'stage'>>> = {
  dev: {
    webOrigin: 'http://localhost:5173',
    retain: false,
    // The shape of an Entra ID tenant (README, "Corporate SSO"). The zero ids are placeholders: deploy with
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
  prod: { webOrigin: 'https://proveedores.example.com', retain: true },
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
] as const;

/** Context keys whose `-c` value is JSON text. */
const JSON_KEYS: ReadonlySet<string> = new Set(['sapCompanyCodes', 'corporateSso']);

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
  }
  const parsed = StageConfig.safeParse({ ...defaults, ...overrides, stage });
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
