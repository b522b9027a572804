import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { AdminGetUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { createRemoteJWKSet } from 'jose';
import type { ClientPermissions } from './access.js';
import {
  FederationError,
  MAPPED_ATTRIBUTES,
  ensureFederatedUser,
  poolAuthorizationCode,
  signInAtProvider,
  type FederationConfig,
  type PendingSignIn,
  type ProviderMetadata,
} from './federation.js';

export type { FederationConfig } from './federation.js';

/**
 * The federated part of the user pool's hosted UI, which cognito-local lacks: `/oauth2/authorize`
 * with `identity_provider`, `/oauth2/idpresponse` and `/logout`. What Cognito does for an OIDC
 * provider, step by step:
 *
 * 1. authorize: checks the app client, its callback URL and the provider, remembers the app's request
 *    (its PKCE challenge and state) and sends the browser to the provider's authorization endpoint;
 * 2. idpresponse: exchanges the provider's code (client secret), verifies its ID token (issuer,
 *    audience, nonce, signature) and reads userinfo;
 * 3. creates the federated user on first sign-in, or refreshes its mapped attributes (email,
 *    given_name, family_name, groups → custom:groups) and leaves `identities` as Cognito writes it;
 * 4. refuses a disabled user, and otherwise issues the pool's authorization code for the app.
 *
 * Step 4 goes through cognito-local's own hosted login (POST /oauth2/authorize with the user's
 * credentials), so the code, its PKCE check at /oauth2/token, the tokens and the PreTokenGeneration
 * trigger are cognito-local's. The federated user gets a random password for that hand-over; nobody
 * ever learns it. Differences from Cognito, documented in docs/adr/0006-identity-on-the-local-stage.md: the federated user's
 * username is a UUID (Cognito: `<provider>_<sub>`) and its e-mail must not belong to a password user.
 */

export interface HostedUi {
  /** Enables the corporate provider once the pool and its client exist. */
  configure(config: FederationConfig): void;
  /**
   * Whether `password` is the user's current password, as cognito-local's hosted login compares it
   * (used to check a temporary password, which cognito-local's InitiateAuth does not).
   */
  checkPassword(clientId: string, username: string, password: string): Promise<boolean>;
  /** Whether the pool holds this user (by username, sub or e-mail) and it is disabled. */
  isDisabled(username: string): Promise<boolean>;
  /** Handles the request when it is a federated hosted-UI call; false lets the proxy forward it. */
  handle(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<boolean>;
}

const PENDING_TTL_MS = 10 * 60 * 1000;

interface HostedUiOptions {
  endpoint: string;
  internalEndpoint: string;
  /** The app client's write permissions: Cognito writes the IdP's mapped attributes with them. */
  permissions?: Pick<ClientPermissions, 'writableAttributes'>;
}

/** What a hosted UI holds between requests: the provider (once configured), its discovery and keys, pending sign-ins. */
interface HostedUiState {
  readonly options: HostedUiOptions;
  readonly cognito: CognitoIdentityProviderClient;
  readonly pending: Map<string, PendingSignIn>;
  readonly idpResponseUrl: string;
  config: FederationConfig | null;
  metadata: Promise<ProviderMetadata> | null;
  jwks: ReturnType<typeof createRemoteJWKSet> | null;
}

export function createHostedUi(options: HostedUiOptions): HostedUi {
  const state: HostedUiState = {
    options,
    cognito: new CognitoIdentityProviderClient({
      endpoint: options.internalEndpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      maxAttempts: 1,
    }),
    pending: new Map(),
    idpResponseUrl: `${options.endpoint}/oauth2/idpresponse`,
    config: null,
    metadata: null,
    jwks: null,
  };
  return {
    configure(next) {
      state.config = next;
      state.metadata = null;
      state.jwks = null;
    },
    isDisabled: (username) => isDisabled(state, username),
    checkPassword: (clientId, username, password) => checkPassword(state, clientId, username, password),
    handle: (req, res, url) => handle(state, req, res, url),
  };
}

function providerMetadata(state: HostedUiState, provider: FederationConfig['provider']): Promise<ProviderMetadata> {
  state.metadata ??= fetch(`${provider.issuer}/.well-known/openid-configuration`)
    .then(async (response) => {
      if (!response.ok) throw new Error(`discovery ${response.status}`);
      return (await response.json()) as ProviderMetadata;
    })
    .catch((error: unknown) => {
      state.metadata = null;
      throw error;
    });
  return state.metadata;
}

async function handle(
  state: HostedUiState,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
): Promise<boolean> {
  if (req.method !== 'GET') return false;
  const federated = url.searchParams.has('identity_provider') || url.searchParams.has('idp_identifier');
  if (url.pathname === '/oauth2/authorize' && !federated) return false;
  if (!['/oauth2/authorize', '/oauth2/idpresponse', '/logout'].includes(url.pathname)) return false;
  if (!state.config) {
    badRequest(res, 'El proveedor corporativo aún no está configurado en el entorno local', 503);
    return true;
  }
  if (url.pathname === '/oauth2/authorize') await authorize(state, res, url, state.config);
  else if (url.pathname === '/oauth2/idpresponse') await idpResponse(state, res, url, state.config);
  else logout(res, url, state.config);
  return true;
}

async function isDisabled(state: HostedUiState, username: string): Promise<boolean> {
  if (!state.config) return false;
  try {
    const user = await state.cognito.send(
      new AdminGetUserCommand({ UserPoolId: state.config.userPoolId, Username: username }),
    );
    return user.Enabled === false;
  } catch (error) {
    if ((error as { name?: string }).name === 'UserNotFoundException') return false;
    throw error;
  }
}

async function checkPassword(
  state: HostedUiState,
  clientId: string,
  username: string,
  password: string,
): Promise<boolean> {
  const { config } = state;
  const redirectUri = config?.callbackUrls[0];
  if (!config || clientId !== config.clientId || !redirectUri || !username || !password) return false;
  const response = await fetch(`${state.options.internalEndpoint}/oauth2/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      code_challenge: randomBytes(32).toString('base64url'),
      code_challenge_method: 'S256',
      username,
      password,
    }),
  });
  await response.arrayBuffer();
  // A code (302) means the password matched; the login form again (200) means it did not.
  return response.status === 302;
}

async function authorize(
  state: HostedUiState,
  res: http.ServerResponse,
  url: URL,
  federation: FederationConfig,
): Promise<void> {
  const query = url.searchParams;
  const clientId = query.get('client_id');
  const redirectUri = query.get('redirect_uri');
  if (clientId !== federation.clientId) return badRequest(res, 'client_id no válido para el proveedor corporativo');
  if (!redirectUri || !federation.callbackUrls.includes(redirectUri)) {
    return badRequest(res, 'redirect_mismatch: la URL de retorno no está registrada en el cliente');
  }
  if (query.get('response_type') !== 'code') return badRequest(res, 'response_type debe ser code');
  const codeChallenge = query.get('code_challenge');
  if (!codeChallenge || query.get('code_challenge_method') !== 'S256') {
    return badRequest(res, 'Se requiere PKCE (code_challenge con code_challenge_method=S256)');
  }
  const providerName = query.get('identity_provider') ?? query.get('idp_identifier');
  if (providerName !== federation.provider.name) return badRequest(res, 'Proveedor de identidad desconocido');

  const key = randomBytes(24).toString('base64url');
  const nonce = randomBytes(16).toString('base64url');
  prune(state.pending);
  state.pending.set(key, {
    clientId,
    redirectUri,
    codeChallenge,
    scope: query.get('scope') ?? 'openid',
    state: query.get('state'),
    nonce,
    expiresAt: Date.now() + PENDING_TTL_MS,
  });
  const provider = await providerMetadata(state, federation.provider);
  const target = new URL(provider.authorization_endpoint);
  target.search = new URLSearchParams({
    client_id: federation.provider.clientId,
    response_type: 'code',
    scope: federation.provider.scopes.join(' '),
    redirect_uri: state.idpResponseUrl,
    state: key,
    nonce,
  }).toString();
  redirect(res, target.toString());
}

async function idpResponse(
  state: HostedUiState,
  res: http.ServerResponse,
  url: URL,
  federation: FederationConfig,
): Promise<void> {
  const key = url.searchParams.get('state') ?? '';
  const request = state.pending.get(key);
  state.pending.delete(key);
  if (!request || request.expiresAt < Date.now()) {
    return badRequest(res, 'La solicitud de inicio de sesión expiró o no es válida: vuelva a intentarlo.');
  }
  const back = (params: Record<string, string>) => {
    const target = new URL(request.redirectUri);
    for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
    if (request.state) target.searchParams.set('state', request.state);
    redirect(res, target.toString());
  };
  const providerError = url.searchParams.get('error');
  if (providerError) {
    return back({ error: providerError, error_description: url.searchParams.get('error_description') ?? '' });
  }
  try {
    const provider = await providerMetadata(state, federation.provider);
    const keys = (jwksUri: string) => (state.jwks ??= createRemoteJWKSet(new URL(jwksUri)));
    const profile = await signInAtProvider(provider, keys, federation, {
      code: url.searchParams.get('code') ?? '',
      nonce: request.nonce,
      redirectUri: state.idpResponseUrl,
    });
    // Cognito writes the mapped attributes with the app client's write permissions, or fails the sign-in.
    const writable = await state.options.permissions?.writableAttributes(federation.userPoolId, federation.clientId);
    if (writable && MAPPED_ATTRIBUTES.some((name) => !writable.has(name))) {
      throw new FederationError('invalid_request', 'A client attempted to write unauthorized attribute');
    }
    const user = await ensureFederatedUser(state.cognito, federation, profile);
    if (user.Enabled === false) throw new FederationError('access_denied', 'User is disabled.');
    const internal = state.options.internalEndpoint;
    redirect(res, await poolAuthorizationCode(internal, request, user, state.cognito, federation));
  } catch (error) {
    if (error instanceof FederationError) return back({ error: error.error, error_description: error.message });
    throw error;
  }
}

function logout(res: http.ServerResponse, url: URL, federation: FederationConfig): void {
  const logoutUri = url.searchParams.get('logout_uri');
  if (url.searchParams.get('client_id') !== federation.clientId) return badRequest(res, 'client_id no válido');
  if (!logoutUri || !federation.logoutUrls.includes(logoutUri)) {
    return badRequest(res, 'La URL de salida no está registrada en el cliente');
  }
  redirect(res, logoutUri);
}

function prune(pending: Map<string, PendingSignIn>): void {
  const now = Date.now();
  for (const [key, value] of pending) if (value.expiresAt < now) pending.delete(key);
}

function redirect(res: http.ServerResponse, location: string): void {
  res.writeHead(302, { location, 'cache-control': 'no-store', 'content-length': '0' });
  res.end();
}

function badRequest(res: http.ServerResponse, message: string, status = 400): void {
  const body = `<!doctype html><html lang="es"><meta charset="utf-8"><title>Error</title><p>${message.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}</p></html>`;
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
