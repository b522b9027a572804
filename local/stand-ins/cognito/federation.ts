import { randomBytes } from 'node:crypto';
import {
  AdminCreateUserCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  ListUsersCommand,
  type AttributeType,
  type CognitoIdentityProviderClient,
  type UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import { jwtVerify, type createRemoteJWKSet, type JWTPayload } from 'jose';
import { USER_ATTRIBUTES } from '@portal/shared';

/**
 * The corporate provider's side of the hosted UI's federated sign-in (hosted-ui.ts): the provider's code exchanged
 * and its ID token verified, the federated user created or its mapped attributes refreshed, and the pool's
 * authorization code issued through cognito-local's own hosted login.
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

export interface PendingSignIn {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly scope: string;
  readonly state: string | null;
  readonly nonce: string;
  readonly expiresAt: number;
}

export interface ProviderMetadata {
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

/** The pool attributes a federated sign-in writes (ensureFederatedUser). */
export const MAPPED_ATTRIBUTES = ['email', 'given_name', 'family_name', USER_ATTRIBUTES.ssoGroups];

export class FederationError extends Error {
  constructor(
    readonly error: string,
    description: string,
  ) {
    super(description);
  }
}

/** Exchanges the provider's code, verifies its ID token (issuer, audience, nonce, signature) and reads userinfo. */
export async function signInAtProvider(
  provider: ProviderMetadata,
  keys: (jwksUri: string) => ReturnType<typeof createRemoteJWKSet>,
  federation: FederationConfig,
  request: { readonly code: string; readonly nonce: string; readonly redirectUri: string },
): Promise<FederatedProfile> {
  const { code, nonce } = request;
  const tokenResponse = await fetch(provider.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: request.redirectUri,
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
  const { payload } = await jwtVerify(tokens.id_token, keys(provider.jwks_uri), {
    issuer: federation.provider.issuer,
    audience: federation.provider.clientId,
  }).catch((error: Error) => {
    throw new FederationError('invalid_request', `El token del proveedor corporativo no es válido (${error.message})`);
  });
  if (payload.nonce !== nonce)
    throw new FederationError('invalid_request', 'El token del proveedor corporativo no corresponde a esta solicitud');
  const userinfo = await fetch(provider.userinfo_endpoint, {
    headers: { authorization: `Bearer ${tokens.access_token}` },
  });
  const claims = { ...payload, ...(userinfo.ok ? ((await userinfo.json()) as JWTPayload) : {}) };
  return federatedProfile(claims, federation.provider.groupsClaim);
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

export async function ensureFederatedUser(
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
export async function poolAuthorizationCode(
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
