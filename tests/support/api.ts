import { randomUUID } from 'node:crypto';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { HEADERS, buildPath, type RouteDef } from '@portal/shared';
import { corporateSignIn } from './corporate-sign-in.js';
import { stage } from './stage.js';

const tokens = new Map<string, Promise<string>>();

/**
 * Signs in through the local Cognito as the web app does; the ID token is the bearer. Staff accounts
 * (signIn 'corporate') go through the corporate IdP (authorization code + PKCE), everyone else through
 * USER_PASSWORD_AUTH.
 */
export function idTokenOf(username: string, password: string): Promise<string> {
  let token = tokens.get(username);
  const account = stage().demoUsers.find((user) => user.username === username);
  if (!token && account?.signIn === 'corporate') {
    const { cognitoEndpoint, userPoolClientId, webUrl, corporateIdp } = stage();
    token = corporateSignIn({
      hostedUi: cognitoEndpoint,
      clientId: userPoolClientId,
      redirectUri: `${webUrl}/login`,
      providerName: corporateIdp.providerName,
      email: username,
      password,
    }).then((result) => result.idToken);
    tokens.set(username, token);
  }
  if (!token) {
    const { cognitoEndpoint, region, userPoolClientId } = stage();
    const cognito = new CognitoIdentityProviderClient({
      region,
      endpoint: cognitoEndpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    token = cognito
      .send(
        new InitiateAuthCommand({
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: userPoolClientId,
          AuthParameters: { USERNAME: username, PASSWORD: password },
        }),
      )
      .then((result) => result.AuthenticationResult!.IdToken!);
    tokens.set(username, token);
  }
  return token;
}

export interface CallOptions {
  token?: string | null;
  path?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  /** The API of another stage than the shared one (a test's stage of its own). */
  apiUrl?: string;
}

export interface CallResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
  requestId: string;
}

/** Calls a manifest route on the local gateway, as the web client does. */
export async function call<T = any>(def: RouteDef, options: CallOptions = {}): Promise<CallResult<T>> {
  const url = new URL((options.apiUrl ?? stage().apiUrl) + buildPath(def, options.path));
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  const requestId = `test-${randomUUID()}`;
  const response = await fetch(url, {
    method: def.method,
    headers: {
      [HEADERS.requestId]: requestId,
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers, requestId };
}
