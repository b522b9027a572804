import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import {
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  CognitoIdentityProviderClient,
  ListUsersCommand,
  type AttributeType,
  type UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { USER_ATTRIBUTES } from '@portal/shared';
import type { ClientPermissions } from './cognito-permissions.js';

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

export interface FederationConfig {
  readonly userPoolId: string;
  /** The web app client: the only one allowed to use the corporate provider. */
  readonly clientId: string;
  readonly callbackUrls: readonly string[];
  readonly logoutUrls: readonly string[];
  readonly provider: {
    readonly name: string;
    readonly issuer: string;
    readonly clientId: string;
    readonly clientSecret: string;
    readonly scopes: readonly string[];
    /** The provider's claim mapped to custom:groups. */
    readonly groupsClaim: string;
  };
}

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

interface PendingSignIn {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly scope: string;
  readonly state: string | null;
  readonly nonce: string;
  readonly expiresAt: number;
}

interface ProviderMetadata {
  readonly authorization_endpoint: string;
  readonly token_endpoint: string;
  readonly userinfo_endpoint: string;
  readonly jwks_uri: string;
}

export interface FederatedProfile {
  readonly subject: string;
  readonly email: string;
  readonly givenName: string;
  readonly familyName: string;
  readonly groups: readonly string[];
}

const PENDING_TTL_MS = 10 * 60 * 1000;
/** The pool attributes a federated sign-in writes (ensureFederatedUser). */
const MAPPED_ATTRIBUTES = ['email', 'given_name', 'family_name', USER_ATTRIBUTES.ssoGroups];

class FederationError extends Error {
  constructor(
    readonly error: string,
    description: string,
  ) {
    super(description);
  }
}

export function createHostedUi(options: {
  endpoint: string;
  internalEndpoint: string;
  /** The app client's write permissions: Cognito writes the IdP's mapped attributes with them. */
  permissions?: Pick<ClientPermissions, 'writableAttributes'>;
}): HostedUi {
  let config: FederationConfig | null = null;
  let metadata: Promise<ProviderMetadata> | null = null;
  let jwks: ReturnType<typeof createRemoteJWKSet> | null = null;
  const pending = new Map<string, PendingSignIn>();
  const idpResponseUrl = `${options.endpoint}/oauth2/idpresponse`;
  const cognito = new CognitoIdentityProviderClient({
    endpoint: options.internalEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });

  const providerMetadata = (provider: FederationConfig['provider']): Promise<ProviderMetadata> => {
    metadata ??= fetch(`${provider.issuer}/.well-known/openid-configuration`)
      .then(async (response) => {
        if (!response.ok) throw new Error(`discovery ${response.status}`);
        return (await response.json()) as ProviderMetadata;
      })
      .catch((error: unknown) => {
        metadata = null;
        throw error;
      });
    return metadata;
  };

  async function authorize(res: http.ServerResponse, url: URL, federation: FederationConfig): Promise<void> {
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
    prune(pending);
    pending.set(key, {
      clientId,
      redirectUri,
      codeChallenge,
      scope: query.get('scope') ?? 'openid',
      state: query.get('state'),
      nonce,
      expiresAt: Date.now() + PENDING_TTL_MS,
    });
    const provider = await providerMetadata(federation.provider);
    const target = new URL(provider.authorization_endpoint);
    target.search = new URLSearchParams({
      client_id: federation.provider.clientId,
      response_type: 'code',
      scope: federation.provider.scopes.join(' '),
      redirect_uri: idpResponseUrl,
      state: key,
      nonce,
    }).toString();
    redirect(res, target.toString());
  }

  async function idpResponse(res: http.ServerResponse, url: URL, federation: FederationConfig): Promise<void> {
    const key = url.searchParams.get('state') ?? '';
    const request = pending.get(key);
    pending.delete(key);
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
      const profile = await signInAtProvider(federation, url.searchParams.get('code') ?? '', request.nonce);
      // Cognito writes the mapped attributes with the app client's write permissions, or fails the sign-in.
      const writable = await options.permissions?.writableAttributes(federation.userPoolId, federation.clientId);
      if (writable && MAPPED_ATTRIBUTES.some((name) => !writable.has(name))) {
        throw new FederationError('invalid_request', 'A client attempted to write unauthorized attribute');
      }
      const user = await ensureFederatedUser(cognito, federation, profile);
      if (user.Enabled === false) throw new FederationError('access_denied', 'User is disabled.');
      const location = await poolAuthorizationCode(options.internalEndpoint, request, user, cognito, federation);
      redirect(res, location);
    } catch (error) {
      if (error instanceof FederationError) return back({ error: error.error, error_description: error.message });
      throw error;
    }
  }

  async function signInAtProvider(
    federation: FederationConfig,
    code: string,
    nonce: string,
  ): Promise<FederatedProfile> {
    const provider = await providerMetadata(federation.provider);
    const tokenResponse = await fetch(provider.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: idpResponseUrl,
        client_id: federation.provider.clientId,
        client_secret: federation.provider.clientSecret,
      }),
    });
    const tokens = (await tokenResponse.json()) as { id_token?: string; access_token?: string; error?: string };
    if (!tokenResponse.ok || !tokens.id_token || !tokens.access_token) {
      throw new FederationError(
        'invalid_request',
        `El proveedor corporativo rechazó el código (${tokens.error ?? tokenResponse.status})`,
      );
    }
    jwks ??= createRemoteJWKSet(new URL(provider.jwks_uri));
    const { payload } = await jwtVerify(tokens.id_token, jwks, {
      issuer: federation.provider.issuer,
      audience: federation.provider.clientId,
    }).catch((error: Error) => {
      throw new FederationError(
        'invalid_request',
        `El token del proveedor corporativo no es válido (${error.message})`,
      );
    });
    if (payload.nonce !== nonce)
      throw new FederationError(
        'invalid_request',
        'El token del proveedor corporativo no corresponde a esta solicitud',
      );
    const userinfo = await fetch(provider.userinfo_endpoint, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    const claims = { ...payload, ...(userinfo.ok ? ((await userinfo.json()) as JWTPayload) : {}) };
    return federatedProfile(claims, federation.provider.groupsClaim);
  }

  return {
    configure(next) {
      config = next;
      metadata = null;
      jwks = null;
    },
    async isDisabled(username) {
      if (!config) return false;
      try {
        const user = await cognito.send(new AdminGetUserCommand({ UserPoolId: config.userPoolId, Username: username }));
        return user.Enabled === false;
      } catch (error) {
        if ((error as { name?: string }).name === 'UserNotFoundException') return false;
        throw error;
      }
    },
    async checkPassword(clientId, username, password) {
      const redirectUri = config?.callbackUrls[0];
      if (!config || clientId !== config.clientId || !redirectUri || !username || !password) return false;
      const response = await fetch(`${options.internalEndpoint}/oauth2/authorize`, {
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
    },
    async handle(req, res, url) {
      if (req.method !== 'GET') return false;
      const federated = url.searchParams.has('identity_provider') || url.searchParams.has('idp_identifier');
      if (url.pathname === '/oauth2/authorize' && !federated) return false;
      if (!['/oauth2/authorize', '/oauth2/idpresponse', '/logout'].includes(url.pathname)) return false;
      if (!config) {
        badRequest(res, 'El proveedor corporativo aún no está configurado en el entorno local', 503);
        return true;
      }
      if (url.pathname === '/oauth2/authorize') await authorize(res, url, config);
      else if (url.pathname === '/oauth2/idpresponse') await idpResponse(res, url, config);
      else logout(res, url, config);
      return true;
    },
  };
}

/** The claims the pool maps, from the provider's ID token and userinfo. */
export function federatedProfile(claims: JWTPayload, groupsClaim: string): FederatedProfile {
  const text = (name: string) => (typeof claims[name] === 'string' ? (claims[name] as string) : '');
  const email = text('email').toLowerCase();
  if (!claims.sub || !email)
    throw new FederationError('invalid_request', 'El proveedor corporativo no envió el correo del usuario');
  const raw = claims[groupsClaim];
  const groups = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' && raw ? [raw] : [];
  return { subject: claims.sub, email, givenName: text('given_name'), familyName: text('family_name'), groups };
}

/** The `identities` attribute Cognito writes on a federated user. */
export function identitiesAttribute(providerName: string, subject: string, createdAt: number): string {
  return JSON.stringify([
    { userId: subject, providerName, providerType: 'OIDC', issuer: null, primary: true, dateCreated: createdAt },
  ]);
}

function linkedTo(user: UserType, providerName: string, subject: string): boolean {
  const raw = user.Attributes?.find((attribute) => attribute.Name === 'identities')?.Value;
  if (!raw) return false;
  try {
    const identities = JSON.parse(raw) as { userId?: string; providerName?: string }[];
    return identities.some((identity) => identity.providerName === providerName && identity.userId === subject);
  } catch {
    return false;
  }
}

async function ensureFederatedUser(
  cognito: CognitoIdentityProviderClient,
  federation: FederationConfig,
  profile: FederatedProfile,
): Promise<UserType> {
  const providerName = federation.provider.name;
  const mapped: AttributeType[] = [
    { Name: 'given_name', Value: profile.givenName },
    { Name: 'family_name', Value: profile.familyName },
    { Name: USER_ATTRIBUTES.ssoGroups, Value: JSON.stringify(profile.groups) },
  ];
  const found = await cognito.send(
    new ListUsersCommand({ UserPoolId: federation.userPoolId, Filter: `email = "${profile.email.replace(/"/g, '')}"` }),
  );
  const existing = found.Users?.[0];
  if (existing && !linkedTo(existing, providerName, profile.subject)) {
    throw new FederationError(
      'invalid_request',
      `En el entorno local el correo ${profile.email} ya pertenece a una cuenta con contraseña; use otro correo corporativo.`,
    );
  }
  if (existing?.Username) {
    const current = new Map(existing.Attributes?.map((attribute) => [attribute.Name, attribute.Value]));
    const changed = mapped.filter((attribute) => current.get(attribute.Name) !== attribute.Value);
    if (changed.length > 0) {
      await cognito.send(
        new AdminUpdateUserAttributesCommand({
          UserPoolId: federation.userPoolId,
          Username: existing.Username,
          UserAttributes: changed,
        }),
      );
    }
    return existing;
  }
  const created = await cognito.send(
    new AdminCreateUserCommand({
      UserPoolId: federation.userPoolId,
      Username: profile.email,
      MessageAction: 'SUPPRESS',
      UserAttributes: [
        { Name: 'email', Value: profile.email },
        { Name: 'email_verified', Value: 'true' },
        { Name: 'identities', Value: identitiesAttribute(providerName, profile.subject, Date.now()) },
        ...mapped,
      ],
    }),
  );
  if (!created.User) throw new Error('cognito-local no devolvió el usuario federado creado');
  return created.User;
}

/** cognito-local's own hosted login issues the code: the user's random password is the hand-over. */
async function poolAuthorizationCode(
  internalEndpoint: string,
  request: PendingSignIn,
  user: UserType,
  cognito: CognitoIdentityProviderClient,
  federation: FederationConfig,
): Promise<string> {
  const password = `Fed-${randomBytes(24).toString('base64url')}9a!`;
  await cognito.send(
    new AdminSetUserPasswordCommand({
      UserPoolId: federation.userPoolId,
      Username: user.Username!,
      Password: password,
      Permanent: true,
    }),
  );
  const response = await fetch(`${internalEndpoint}/oauth2/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: request.clientId,
      redirect_uri: request.redirectUri,
      response_type: 'code',
      code_challenge: request.codeChallenge,
      code_challenge_method: 'S256',
      scope: request.scope,
      ...(request.state ? { state: request.state } : {}),
      username: user.Username!,
      password,
    }),
  });
  const location = response.headers.get('location');
  if (response.status !== 302 || !location) {
    throw new Error(`cognito-local no emitió el código de autorización (${response.status})`);
  }
  return location;
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
