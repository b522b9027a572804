import * as z from 'zod';
import { stageNames } from './naming.js';
import { HOST_NAME } from './stage-mail.js';

/** Words Cognito refuses in a hosted-UI domain prefix. */
const RESERVED_PREFIX_WORDS = ['aws', 'amazon', 'cognito'] as const;
/** Cognito's domain prefix: lowercase letters, digits and hyphens, 1-63 characters, no hyphen at either end. */
const DOMAIN_PREFIX = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The hosted-UI domain prefix a stage gets when it names none. */
export function defaultDomainPrefix(stage: string): string {
  return stageNames(stage).hostedUiDomainPrefix;
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

/**
 * The group's corporate e-mail domains, e.g. ["grupo.pe"]: whoever types such an address into the login's
 * password form is told to use 'Ingresar con cuenta corporativa' (staff have no portal password). Published in
 * the web app's config.json as `corporateEmailDomains`.
 */
const emailDomains = z
  .array(
    z
      .string()
      .regex(
        HOST_NAME,
        'corporateSso.emailDomains: lowercase e-mail domains without @, such as grupo.pe (no scheme, no path)',
      ),
  )
  .default([]);

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
    emailDomains,
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
    emailDomains,
  })
  .strict();

export const CorporateSso = z.discriminatedUnion('type', [OidcSso, SamlSso], {
  error: "corporateSso.type: 'OIDC' or 'SAML'",
});
export type CorporateSso = z.infer<typeof CorporateSso>;
