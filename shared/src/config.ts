import * as z from 'zod/mini';

/**
 * Runtime configuration of the web app, fetched from /config.json: one build serves every stage.
 * Written by the local stage and, in AWS, deployed by CDK with the site.
 */
export const WebConfig = z.object({
  stage: z.string(),
  apiUrl: z.url(),
  region: z.string(),
  userPoolId: z.string(),
  userPoolClientId: z.string(),
  /** Set on the local stage only: where the Cognito-compatible server listens. */
  cognitoEndpoint: z.nullable(z.url()),
  /**
   * Corporate SSO through the user pool's hosted UI (authorization code + PKCE), or null when the stage
   * has no federated provider. `baseUrl` is the hosted UI origin: https://{prefix}.auth.{region}.amazoncognito.com
   * in AWS, the local Cognito stand-in on the local stage.
   */
  oauth: z.nullable(
    z.object({
      baseUrl: z.url(),
      /** The federated identity provider's name in the user pool (the `identity_provider` parameter). */
      providerName: z.string(),
      /** Where the hosted UI sends the browser back with the code: the web app's /login. */
      redirectSignIn: z.url(),
      redirectSignOut: z.url(),
      scopes: z._default(z.array(z.string()), ['openid', 'email', 'profile']),
    }),
  ),
  /**
   * The group's corporate e-mail domains (lowercase, without '@'): staff sign in with the corporate button and
   * have no portal password, so the login tells whoever types such an address into the password form to use
   * that button instead. Empty without corporate SSO; absent in a config.json written before it existed.
   */
  corporateEmailDomains: z._default(z.array(z.string()), []),
  chat: z.nullable(
    z.object({ projectId: z.string(), agentId: z.string(), region: z._default(z.string(), 'us-central1') }),
  ),
  /**
   * AWS WAF's JavaScript integration (spec §1, app attestation): the web ACL's application integration
   * URL, from which the app loads challenge.js to obtain the token every API call carries. Null on stages
   * without a web ACL (the local stage); absent in a config.json written before it existed.
   */
  waf: z._default(z.nullable(z.object({ integrationUrl: z.url() })), null),
  /**
   * The domain of the group's intake addresses, `facturas+<RUC>@<domain>` (invoices by e-mail): shown to
   * suppliers beside 'Cargar XML'. Null on a stage that receives no e-mail; absent in a config.json written before.
   */
  intakeMailDomain: z._default(z.nullable(z.string()), null),
  /**
   * The mock provider of spec §7 (docs/web-mock.md): when true, the app answers every route of the manifest in the
   * browser (msw), with Spanish sample data, and the login picks a role instead of signing in. Absent or false on
   * every stage; `npm run start:web-mock` serves a config.json with it set.
   */
  mock: z.optional(z.boolean()),
});
export type WebConfig = z.infer<typeof WebConfig>;
