import { z } from 'zod';

/**
 * Configuration of one AWS stage, selected with `cdk synth|deploy -c stage=NAME`.
 * Known stages carry their defaults here; any field can be overridden with `-c field=value`.
 */
export const StageConfig = z.object({
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
});
export type StageConfig = z.infer<typeof StageConfig>;
export type StageConfigInput = z.input<typeof StageConfig>;

export const DEFAULT_STAGE = 'dev';

/** Defaults of the known stages, in one place. */
export const KNOWN_STAGES: Readonly<Record<string, Omit<StageConfigInput, 'stage'>>> = {
  dev: { webOrigin: 'http://localhost:5173', retain: false },
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
] as const;

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
    // `-c sapCompanyCodes='{"<ruc>":"1000"}'` arrives as JSON text.
    if (key === 'sapCompanyCodes' && typeof value === 'string') overrides[key] = parseJsonOr(value);
  }
  const parsed = StageConfig.safeParse({ ...defaults, ...overrides, stage });
  if (!parsed.success) {
    throw new Error(`Invalid configuration for stage '${stage}':\n${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
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
