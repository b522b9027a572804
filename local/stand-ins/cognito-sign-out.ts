import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

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
