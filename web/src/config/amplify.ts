import { Amplify, type ResourcesConfig } from 'aws-amplify';
import type { WebConfig } from '@portal/shared';

/**
 * Amplify signs users in with e-mail and password and keeps, refreshes and revokes the tokens.
 * Corporate SSO does not go through Amplify's OAuth support (it only speaks https://{domain}, which the
 * local stage cannot offer): see auth/corporate-sign-in.ts, which hands its tokens to Amplify.
 */
export function amplifyConfig(config: WebConfig): ResourcesConfig {
  return {
    Auth: {
      Cognito: {
        userPoolId: config.userPoolId,
        userPoolClientId: config.userPoolClientId,
        // Only the local stage sets it: the Cognito-compatible server the stage runs.
        ...(config.cognitoEndpoint ? { userPoolEndpoint: config.cognitoEndpoint } : {}),
        loginWith: { email: true },
      },
    },
  };
}

export function configureAmplify(config: WebConfig): void {
  Amplify.configure(amplifyConfig(config));
}
