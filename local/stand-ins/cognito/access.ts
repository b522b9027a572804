import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
  DescribeUserPoolClientCommand,
  ListUserPoolsCommand,
  type UserPoolClientType,
} from '@aws-sdk/client-cognito-identity-provider';
import {
  createLocalJWKSet,
  decodeJwt,
  errors as joseErrors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
} from 'jose';
import { isRecord, parseJson, type AuthRefusal } from './wire.js';

/**
 * What Cognito checks on the calls a user makes about itself, which cognito-local does not:
 *
 * - The access token of GetUser, UpdateUserAttributes, ChangePassword, … is verified (signature,
 *   issuer, expiry, token_use `access`); cognito-local only decodes it, so a forged token named any user.
 * - Those calls need the scope `aws.cognito.signin.user.admin`. Cognito leaves it out of tokens issued
 *   through the hosted UI unless the client allows it, and the portal's client does not; cognito-local
 *   puts it in every token. Staff (federated users) only ever get hosted-UI tokens, so their tokens are
 *   treated as lacking the scope.
 * - The app client's write permissions (its WriteAttributes): UpdateUserAttributes, DeleteUserAttributes,
 *   SignUp and the new-password challenge's `userAttributes.*` may only name attributes the client may
 *   write, else NotAuthorizedException "A client attempted to write unauthorized attribute". A client
 *   without WriteAttributes may write the standard attributes only. The admin API (IAM) is not limited.
 */

const ADMIN_SCOPE = 'aws.cognito.signin.user.admin';

/** Calls authorized by the user's own access token (all need the admin scope). */
const ACCESS_TOKEN_OPERATIONS = new Set([
  'GetUser',
  'UpdateUserAttributes',
  'DeleteUserAttributes',
  'ChangePassword',
  'DeleteUser',
  'GlobalSignOut',
  'VerifyUserAttribute',
  'GetUserAttributeVerificationCode',
  'SetUserMFAPreference',
  'SetUserSettings',
  'AssociateSoftwareToken',
  'VerifySoftwareToken',
  'ListDevices',
  'GetDevice',
  'ForgetDevice',
  'ConfirmDevice',
  'UpdateDeviceStatus',
]);

/** Operations that change the app clients: their cached permissions are read again. */
const CLIENT_CHANGES = new Set(['CreateUserPoolClient', 'UpdateUserPoolClient', 'DeleteUserPoolClient']);

const UNAUTHORIZED_WRITE: AuthRefusal = {
  __type: 'NotAuthorizedException',
  message: 'A client attempted to write unauthorized attribute',
};

/** Attributes of Cognito's standard schema (writable by a client without WriteAttributes). */
const STANDARD_ATTRIBUTES = new Set([
  'address',
  'birthdate',
  'email',
  'email_verified',
  'family_name',
  'gender',
  'given_name',
  'locale',
  'middle_name',
  'name',
  'nickname',
  'phone_number',
  'phone_number_verified',
  'picture',
  'preferred_username',
  'profile',
  'updated_at',
  'website',
  'zoneinfo',
]);

export interface ClientPermissions {
  /** The refusal Cognito would answer to this call, or null to forward it. */
  check(operation: string, body: Buffer): Promise<AuthRefusal | null>;
  /** The attributes an app client may write (pool attribute names). */
  writableAttributes(userPoolId: string, clientId: string): Promise<ReadonlySet<string>>;
}

export function createClientPermissions(options: { endpoint: string; internalEndpoint: string }): ClientPermissions {
  const require = createRequire(import.meta.url);
  const publicKey = require('cognito-local/lib/keys/cognitoLocal.public.json') as { jwk: JSONWebKeySet['keys'][0] };
  const keys = createLocalJWKSet({ keys: [publicKey.jwk] });
  const cognito = new CognitoIdentityProviderClient({
    endpoint: options.internalEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const clients = new Map<string, Promise<UserPoolClientType | null>>();
  const issuerPrefix = `${options.endpoint.replace(/\/+$/, '')}/`;

  const appClient = (clientId: string, userPoolId?: string): Promise<UserPoolClientType | null> => {
    let found = clients.get(clientId);
    if (!found) {
      found = (async () => {
        const pools = userPoolId
          ? [userPoolId]
          : ((await cognito.send(new ListUserPoolsCommand({ MaxResults: 60 }))).UserPools ?? []).flatMap((pool) =>
              pool.Id ? [pool.Id] : [],
            );
        for (const pool of pools) {
          try {
            const described = await cognito.send(
              new DescribeUserPoolClientCommand({ UserPoolId: pool, ClientId: clientId }),
            );
            if (described.UserPoolClient) return described.UserPoolClient;
          } catch {
            // not a client of this pool
          }
        }
        return null;
      })();
      clients.set(clientId, found);
      found.catch(() => clients.delete(clientId));
    }
    return found;
  };

  const writable = (client: UserPoolClientType | null): ReadonlySet<string> | null => {
    if (!client) return null;
    const declared = client.WriteAttributes ?? [];
    return new Set(declared.length > 0 ? declared : STANDARD_ATTRIBUTES);
  };

  const verifyAccessToken = async (token: unknown): Promise<JWTPayload | AuthRefusal> => {
    const invalid: AuthRefusal = { __type: 'NotAuthorizedException', message: 'Invalid Access Token' };
    if (typeof token !== 'string') return invalid;
    let issuer: string | undefined;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      return invalid;
    }
    if (!issuer?.startsWith(issuerPrefix)) return invalid;
    try {
      const { payload } = await jwtVerify(token, keys, { issuer, algorithms: ['RS256'] });
      if (payload.token_use !== 'access' || typeof payload.client_id !== 'string') return invalid;
      return payload;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        return { __type: 'NotAuthorizedException', message: 'Access Token has expired' };
      }
      return invalid;
    }
  };

  const isFederated = async (userPoolId: string, username: string): Promise<boolean> => {
    try {
      const user = await cognito.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: username }));
      return (user.UserAttributes ?? []).some((attribute) => attribute.Name === 'identities' && attribute.Value);
    } catch {
      return false;
    }
  };

  return {
    async writableAttributes(userPoolId, clientId) {
      return writable(await appClient(clientId, userPoolId)) ?? new Set();
    },

    async check(operation, body) {
      if (CLIENT_CHANGES.has(operation)) {
        clients.clear();
        return null;
      }
      const request = parseJson(body);
      if (!isRecord(request)) return null;

      let clientId: string | undefined;
      let userPoolId: string | undefined;
      if (ACCESS_TOKEN_OPERATIONS.has(operation)) {
        const verified = await verifyAccessToken(request.AccessToken);
        if ('__type' in verified) return verified as AuthRefusal;
        const scopes = String(verified.scope ?? '').split(' ');
        userPoolId = String(verified.iss).slice(issuerPrefix.length);
        const username = String(verified.username ?? verified.sub);
        if (!scopes.includes(ADMIN_SCOPE) || (await isFederated(userPoolId, username))) {
          return { __type: 'NotAuthorizedException', message: 'Access Token does not have required scopes' };
        }
        clientId = verified.client_id as string;
      } else if (typeof request.ClientId === 'string') {
        clientId = request.ClientId;
      }

      const written = attributesWritten(operation, request);
      if (written.length === 0 || !clientId) return null;
      const allowed = writable(await appClient(clientId, userPoolId));
      // An unknown client: cognito-local answers it as Cognito would (ResourceNotFoundException).
      if (!allowed) return null;
      return written.every((name) => allowed.has(name)) ? null : UNAUTHORIZED_WRITE;
    },
  };
}

/** The attribute names a client-side call writes. */
function attributesWritten(operation: string, request: Record<string, unknown>): string[] {
  const names = (list: unknown): string[] =>
    Array.isArray(list) ? list.map((item) => (isRecord(item) ? String(item.Name) : String(item))) : [];
  switch (operation) {
    case 'UpdateUserAttributes':
    case 'SignUp':
      return names(request.UserAttributes);
    case 'DeleteUserAttributes':
      return names(request.UserAttributeNames);
    case 'RespondToAuthChallenge':
      return isRecord(request.ChallengeResponses)
        ? Object.keys(request.ChallengeResponses)
            .filter((key) => key.startsWith('userAttributes.'))
            .map((key) => key.slice('userAttributes.'.length))
        : [];
    default:
      return [];
  }
}

/**
 * AdminUserGlobalSignOut, which cognito-local (5.x) does not implement, done as Cognito does it: every
 * refresh token the pool issued to the user stops working (refresh answers NotAuthorizedException); ID and
 * access tokens already issued stay valid until they expire. An unknown user gets UserNotFoundException.
 *
 * cognito-local keeps a user's refresh tokens in its store (`RefreshTokens` of the user in
 * <dir>/<userPoolId>.json) and its own RevokeToken removes one: the sign-out reads the user's list there
 * and revokes each through cognito-local, so its refresh paths (InitiateAuth REFRESH_TOKEN_AUTH, the
 * proxy's GetTokensFromRefreshToken, /oauth2/token) all refuse them afterwards.
 */

export interface SignOutAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** Sends an operation of the Cognito API to cognito-local; answers its status and JSON body. */
export type CognitoLocalCall = (operation: string, input: Record<string, unknown>) => Promise<SignOutAnswer>;

const POOL_ID = /^[\w-]+_[0-9A-Za-z]+$/;

const invalid = (message: string): SignOutAnswer => ({
  status: 400,
  body: { __type: 'InvalidParameterException', message },
});

export async function adminUserGlobalSignOut(
  dbDir: string,
  call: CognitoLocalCall,
  request: unknown,
): Promise<SignOutAnswer> {
  const input = typeof request === 'object' && request !== null ? (request as Record<string, unknown>) : {};
  const { UserPoolId: poolId, Username: username } = input;
  if (typeof poolId !== 'string' || !POOL_ID.test(poolId)) return invalid('UserPoolId is not a valid pool id');
  if (typeof username !== 'string' || username.length < 1 || username.length > 128) {
    return invalid('Username must have length between 1 and 128');
  }
  // By Username or alias (the e-mail), as Cognito resolves it; an unknown user is its UserNotFoundException.
  const found = await call('AdminGetUser', { UserPoolId: poolId, Username: username });
  if (found.status !== 200) return found;
  const stored = (found.body as { Username?: unknown }).Username;
  const user = typeof stored === 'string' ? stored : username;

  const pool = await readStore(path.join(dbDir, `${poolId}.json`));
  const users = (pool?.Users ?? {}) as Record<string, { RefreshTokens?: unknown }>;
  const tokens = users[user]?.RefreshTokens;
  const refreshTokens = Array.isArray(tokens) ? tokens.filter((t): t is string => typeof t === 'string') : [];
  if (refreshTokens.length === 0) return { status: 200, body: {} };

  const clients = (await readStore(path.join(dbDir, 'clients.json')))?.Clients ?? {};
  const clientId = Object.values(clients as Record<string, { ClientId?: string; UserPoolId?: string }>).find(
    (client) => client.UserPoolId === poolId,
  )?.ClientId;
  if (!clientId) throw new Error(`cognito-local no tiene clientes para el pool ${poolId}`);
  for (const token of refreshTokens) {
    const revoked = await call('RevokeToken', { Token: token, ClientId: clientId });
    // NotAuthorized: the token left the store meanwhile (revoked by a concurrent sign-out).
    if (revoked.status !== 200 && (revoked.body as { __type?: string })?.__type !== 'NotAuthorizedException') {
      return revoked;
    }
  }
  return { status: 200, body: {} };
}

/**
 * A store file of cognito-local, which rewrites it in place (not atomically) on every change: a read
 * that meets a half-written file (cut short, or the new text followed by the tail of the old until the file is
 * truncated) reads again, for up to five seconds: on a loaded machine cognito-local can be held between its write and
 * its truncation for longer than a few tries last.
 */
const STORE_READ_ATTEMPTS = 200;

async function readStore(file: string): Promise<Record<string, unknown> | null> {
  for (let attempt = 0; ; attempt++) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch (error) {
      if (attempt >= STORE_READ_ATTEMPTS) throw error;
      await sleep(25);
    }
  }
}
