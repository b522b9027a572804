import { Amplify, type ResourcesConfig } from 'aws-amplify';
import 'aws-amplify/auth/enable-oauth-listener';
import type { WebConfig } from '@portal/shared';

/** OAuth scopes of the corporate sign-in (hosted UI, authorization code + PKCE). */
const OAUTH_SCOPES = ['openid', 'email', 'profile'];

export function amplifyConfig(config: WebConfig): ResourcesConfig {
  return {
    Auth: {
      Cognito: {
        userPoolId: config.userPoolId,
        userPoolClientId: config.userPoolClientId,
        // Only the local stage sets it: the Cognito-compatible server the stage runs.
        ...(config.cognitoEndpoint ? { userPoolEndpoint: config.cognitoEndpoint } : {}),
        loginWith: {
          email: true,
          ...(config.oauth
            ? {
                oauth: {
                  domain: config.oauth.domain,
                  scopes: OAUTH_SCOPES,
                  redirectSignIn: [config.oauth.redirectSignIn],
                  redirectSignOut: [config.oauth.redirectSignOut],
                  responseType: 'code' as const,
                },
              }
            : {}),
        },
      },
    },
  };
}

export function configureAmplify(config: WebConfig): void {
  Amplify.configure(amplifyConfig(config));
}
