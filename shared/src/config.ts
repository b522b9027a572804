import { z } from 'zod';

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
  cognitoEndpoint: z.url().nullable(),
  /** Hosted UI domain for corporate SSO (authorization code + PKCE), or null when not configured. */
  oauth: z
    .object({
      domain: z.string(),
      providerName: z.string(),
      redirectSignIn: z.url(),
      redirectSignOut: z.url(),
    })
    .nullable(),
  chat: z.object({ projectId: z.string(), agentId: z.string(), region: z.string().default('us-central1') }).nullable(),
});
export type WebConfig = z.infer<typeof WebConfig>;
