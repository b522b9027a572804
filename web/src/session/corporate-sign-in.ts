import { decodeJWT, signOut } from 'aws-amplify/auth';
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';
import type { WebConfig } from '@portal/shared';

/**
 * Corporate SSO (spec §1, §6): the user pool's hosted UI federates to the group's identity provider
 * and answers the web app with an authorization code (PKCE, S256), exchanged at /oauth2/token.
 *
 * Amplify's own OAuth support only speaks `https://{domain}`, which the local stage's Cognito stand-in
 * cannot offer; this module runs the same flow against `oauth.baseUrl` and hands the tokens to Amplify,
 * which then keeps, refreshes and revokes them like those of a password sign-in. One code path for
 * both stages.
 */

type OAuthConfig = NonNullable<WebConfig['oauth']>;

const PENDING_KEY = 'portal.corporate-sign-in';
/** Marks a session that came from the hosted UI: signing out also ends the hosted UI session. */
const FEDERATED_KEY = 'portal.federated-session';

interface Pending {
  readonly state: string;
  readonly verifier: string;
  readonly redirectUri: string;
  /**
   * Where the user was going before the login (an invoice an e-mail links to): the hosted UI can only send
   * the browser back to the registered /login, so the tab keeps it for the return.
   */
  readonly returnTo?: string | null;
}

/** Why a corporate sign-in did not end with a session; the login page shows a Spanish message for it. */
export class CorporateSignInError extends Error {
  constructor(
    readonly reason: 'cancelled' | 'disabled' | 'failed',
    /** Where the user was going, kept for another try. */
    readonly returnTo: string | null = null,
  ) {
    super(reason);
  }
}

function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function randomString(bytes: number): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

async function challengeOf(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

/** The page the hosted UI sends the browser back to: this app's /login, on the origin in use. */
function redirectUri(): string {
  return `${window.location.origin}/login`;
}

/**
 * Sends the browser to the hosted UI, which sends it on to the corporate identity provider. `returnTo` is
 * where the app goes once the sign-in completes (the caller checked it is a path of this site).
 */
export async function startCorporateSignIn(
  oauth: OAuthConfig,
  clientId: string,
  returnTo: string | null = null,
): Promise<void> {
  const pending: Pending = {
    state: randomString(16),
    verifier: randomString(48),
    redirectUri: redirectUri(),
    returnTo,
  };
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  const url = new URL('/oauth2/authorize', oauth.baseUrl);
  url.search = new URLSearchParams({
    identity_provider: oauth.providerName,
    client_id: clientId,
    redirect_uri: pending.redirectUri,
    response_type: 'code',
    scope: oauth.scopes.join(' '),
    state: pending.state,
    code_challenge: await challengeOf(pending.verifier),
    code_challenge_method: 'S256',
  }).toString();
  window.location.assign(url.toString());
}

/** Whether the current URL is the hosted UI answering a corporate sign-in of this tab. */
export function isCorporateCallback(search: string): boolean {
  const params = new URLSearchParams(search);
  return (params.has('code') || params.has('error')) && params.has('state');
}

/**
 * Completes the sign-in the hosted UI answered: checks the state, exchanges the code with the PKCE
 * verifier, and stores the tokens where Amplify keeps its own. Answers where the user was going (the
 * `returnTo` given at the start), unchecked: the caller checks it again.
 */
export async function completeCorporateSignIn(
  oauth: OAuthConfig,
  clientId: string,
  search: string,
): Promise<{ returnTo: string | null }> {
  const params = new URLSearchParams(search);
  const raw = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  const pending = raw ? (JSON.parse(raw) as Pending) : null;
  if (!pending || params.get('state') !== pending.state) throw new CorporateSignInError('failed');
  const returnTo = pending.returnTo ?? null;
  const fail = (reason: CorporateSignInError['reason']) => new CorporateSignInError(reason, returnTo);

  const error = params.get('error');
  if (error) {
    if (/disabled/i.test(params.get('error_description') ?? '')) throw fail('disabled');
    throw fail(error === 'access_denied' ? 'cancelled' : 'failed');
  }
  const response = await fetch(new URL('/oauth2/token', oauth.baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: clientId,
      code: params.get('code') ?? '',
      redirect_uri: pending.redirectUri,
      code_verifier: pending.verifier,
    }),
  }).catch(() => null);
  if (!response?.ok) throw fail('failed');
  const tokens = (await response.json()) as { id_token?: string; access_token?: string; refresh_token?: string };
  if (!tokens.id_token || !tokens.access_token) throw fail('failed');

  // A previous session in this browser must not survive under the new one.
  await signOut().catch(() => undefined);
  const accessToken = decodeJWT(tokens.access_token);
  const username = typeof accessToken.payload.username === 'string' ? accessToken.payload.username : 'username';
  await cognitoUserPoolsTokenProvider.tokenOrchestrator.setTokens({
    tokens: {
      accessToken,
      idToken: decodeJWT(tokens.id_token),
      refreshToken: tokens.refresh_token,
      clockDrift: (accessToken.payload.iat ?? Math.floor(Date.now() / 1000)) * 1000 - Date.now(),
      username,
    },
  });
  localStorage.setItem(FEDERATED_KEY, '1');
  return { returnTo };
}

/**
 * After Amplify has signed out: a corporate session also ends the hosted UI's, which answers by sending
 * the browser to the app's root (spec §2: sign-out returns to the root path). False when there is
 * nothing to end there.
 */
export function endHostedUiSession(oauth: OAuthConfig | null, clientId: string): boolean {
  const federated = localStorage.getItem(FEDERATED_KEY) === '1';
  localStorage.removeItem(FEDERATED_KEY);
  if (!federated || !oauth) return false;
  const url = new URL('/logout', oauth.baseUrl);
  url.search = new URLSearchParams({ client_id: clientId, logout_uri: `${window.location.origin}/` }).toString();
  window.location.assign(url.toString());
  return true;
}
