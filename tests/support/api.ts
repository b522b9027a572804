import { randomUUID } from 'node:crypto';
import {
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { expect } from 'vitest';
import { HEADERS, buildPath, type RouteDef } from '@portal/shared';
import { corporateSignIn } from './corporate-sign-in.js';
import { stage } from './stage.js';

const tokens = new Map<string, Promise<string>>();

/** The local stage's Cognito, as the web app reaches it. */
export function localCognito(): CognitoIdentityProviderClient {
  const { cognitoEndpoint, region } = stage();
  return new CognitoIdentityProviderClient({
    region,
    endpoint: cognitoEndpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

/** A staff account's ID token through the corporate IdP (authorization code + PKCE), never cached. */
export async function corporateIdToken(username: string, password: string): Promise<string> {
  const { cognitoEndpoint, userPoolClientId, webUrl, corporateIdp } = stage();
  const result = await corporateSignIn({
    hostedUi: cognitoEndpoint,
    clientId: userPoolClientId,
    redirectUri: `${webUrl}/login`,
    providerName: corporateIdp.providerName,
    email: username,
    password,
  });
  return result.idToken;
}

/**
 * The first sign-in of an invited account, as the web app makes it: its temporary password (Cognito asks for a new
 * one), then `newPassword`. Returns the account's ID token.
 */
export async function completeFirstSignIn(
  email: string,
  temporaryPassword: string,
  newPassword: string,
): Promise<string> {
  const cognito = localCognito();
  const challenge = await cognito.send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: stage().userPoolClientId,
      AuthParameters: { USERNAME: email, PASSWORD: temporaryPassword },
    }),
  );
  expect(challenge.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
  const answer = await cognito.send(
    new RespondToAuthChallengeCommand({
      ClientId: stage().userPoolClientId,
      ChallengeName: 'NEW_PASSWORD_REQUIRED',
      Session: challenge.Session,
      ChallengeResponses: { USERNAME: email, NEW_PASSWORD: newPassword },
    }),
  );
  return answer.AuthenticationResult!.IdToken!;
}

/**
 * Signs in through the local Cognito as the web app does; the ID token is the bearer. Staff accounts
 * (signIn 'corporate') go through the corporate IdP (authorization code + PKCE), everyone else through
 * USER_PASSWORD_AUTH.
 */
export function idTokenOf(username: string, password: string): Promise<string> {
  let token = tokens.get(username);
  const account = stage().demoUsers.find((user) => user.username === username);
  if (!token && account?.signIn === 'corporate') {
    token = corporateIdToken(username, password);
    tokens.set(username, token);
  }
  if (!token) {
    const { userPoolClientId } = stage();
    token = localCognito()
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
