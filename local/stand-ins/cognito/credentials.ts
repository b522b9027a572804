import { createPrivateKey, randomBytes, randomUUID, scrypt, timingSafeEqual, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { SignJWT } from 'jose';
import { isRecord, parseJson, sendJson, send, type AuthRefusal, type UpstreamResponse } from './wire.js';
import { writeFileAtomic } from '../types.js';
import type { HostedUi } from './hosted-ui.js';

/**
 * The client-credentials grant of the local Cognito front (cognito-local handles only the authorization code and
 * the refresh token), as the user pool's domain does it in AWS for an app client with a secret:
 *
 * - `CreateUserPoolClient` with `GenerateSecret`: cognito-local creates the app client without a secret; the secret
 *   is made here, answered once in `ClientSecret`, and kept only as a scrypt hash (with the client's allowed scopes)
 *   in <workDir>/machine-clients.json. `DeleteUserPoolClient` removes the entry: the secret stops working at once.
 * - `POST /oauth2/token` with `grant_type=client_credentials`: the client authenticates with HTTP Basic
 *   (client_secret_basic) or with `client_id` and `client_secret` in the form (client_secret_post). Unknown client,
 *   wrong secret or deleted client: 401 `invalid_client` (RFC 6749 §5.2). A scope it was not given: 400
 *   `invalid_scope`; none asked: all it was given. The PreTokenGeneration trigger is called with the V3 event
 *   Cognito sends for machine clients (`TokenGeneration_ClientCredentials`), and its failure refuses the token.
 * - The access token is signed with cognito-local's own RS256 key (kid "CognitoLocal"), issuer the pool's, so the
 *   local gateway verifies it as it verifies the others; its claims are Cognito's for a machine token (`sub` and
 *   `client_id` the client's id, `scope`, `token_use: access`, no username) plus the trigger's.
 */

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;
const HASH_BYTES = 32;
/** Cognito's default for an app client's access token. */
const ACCESS_TOKEN_SECONDS = 3600;
/** RFC 6749 §2.3.1 / §4.4: what the token endpoint answers a bad client with. */
const INVALID_CLIENT = { error: 'invalid_client', error_description: 'Client authentication failed' } as const;

interface StoredMachineClient {
  readonly userPoolId: string;
  readonly salt: string;
  readonly hash: string;
  readonly scopes: readonly string[];
}

interface Store {
  clients: Record<string, StoredMachineClient>;
}

export interface MachineClientsOptions {
  /** The stage's Cognito work directory: the store file sits beside cognito-local's own. */
  readonly workDir: string;
  /** The public endpoint: the tokens' issuer domain. */
  readonly endpoint: string;
  readonly lambdaEndpoint: string;
  readonly triggerFunctionName: string;
}

export interface MachineClients {
  /**
   * CreateUserPoolClient: when it asks for a secret, forwards it without (through `forwardWithout`) and answers the
   * client with the secret made here. Null: not this case, forward it as it is.
   */
  create(body: Buffer, forwardWithout: (body: Buffer) => Promise<UpstreamResponse>): Promise<UpstreamResponse | null>;
  /** DeleteUserPoolClient succeeded upstream: forgets the client's secret. */
  deleted(body: Buffer): Promise<void>;
  /** POST /oauth2/token with grant_type=client_credentials; false for any other request. */
  handleToken(req: http.IncomingMessage, res: http.ServerResponse, url: URL, body: Buffer): Promise<boolean>;
}

let signingKey: KeyObject | null = null;

/** cognito-local's private key (the one its JWKS publishes as kid "CognitoLocal"). */
function cognitoLocalKey(): KeyObject {
  if (signingKey) return signingKey;
  const require = createRequire(import.meta.url);
  const key = require('cognito-local/lib/keys/cognitoLocal.private.json') as { jwk: Record<string, string> };
  signingKey = createPrivateKey({ key: key.jwk, format: 'jwk' });
  return signingKey;
}

async function hashSecret(secret: string, salt: Buffer): Promise<Buffer> {
  return scryptAsync(secret, salt, HASH_BYTES);
}

/** The client's credentials: HTTP Basic (form-urlencoded id and secret) or the form's fields, not both. */
export function clientCredentialsOf(
  authorization: string | undefined,
  form: URLSearchParams,
): { clientId: string; clientSecret: string } | null {
  const basic = /^Basic\s+(.+)$/i.exec(authorization ?? '')?.[1];
  if (basic) {
    if (form.has('client_secret')) return null;
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon <= 0) return null;
    try {
      return {
        clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
        clientSecret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
      };
    } catch {
      return null;
    }
  }
  const clientId = form.get('client_id');
  const clientSecret = form.get('client_secret');
  return clientId && clientSecret ? { clientId, clientSecret } : null;
}

export function createMachineClients(options: MachineClientsOptions): MachineClients {
  const store = clientStore(path.join(options.workDir, 'machine-clients.json'));
  return {
    create: (body, forwardWithout) => createClient(store, body, forwardWithout),
    async deleted(body) {
      const input = parseJson(body);
      if (!isRecord(input) || typeof input.ClientId !== 'string') return;
      const clientId = input.ClientId;
      await store.change((clients) => {
        delete clients.clients[clientId];
      });
    },
    handleToken: (req, res, url, body) => handleToken(options, store, req, res, url, body),
  };
}

/** machine-clients.json, read whole and changed one change at a time. */
interface ClientStore {
  read(): Promise<Store>;
  change(apply: (store: Store) => void): Promise<void>;
}

function clientStore(file: string): ClientStore {
  let queue: Promise<unknown> = Promise.resolve();
  async function read(): Promise<Store> {
    try {
      const parsed = JSON.parse(await readFile(file, 'utf8')) as unknown;
      if (isRecord(parsed) && isRecord(parsed.clients)) return parsed as unknown as Store;
    } catch {
      // No store yet.
    }
    return { clients: {} };
  }
  return {
    read,
    /** One change at a time: two creations at once must not lose one of them. */
    change(apply) {
      const next = queue.then(async () => {
        const store = await read();
        apply(store);
        await writeFileAtomic(file, `${JSON.stringify(store, null, 2)}\n`, 0o600);
      });
      queue = next.catch(() => undefined);
      return next;
    },
  };
}

/** CreateUserPoolClient with GenerateSecret: created upstream without one, the secret made and kept hashed here. */
async function createClient(
  store: ClientStore,
  body: Buffer,
  forwardWithout: (body: Buffer) => Promise<UpstreamResponse>,
): Promise<UpstreamResponse | null> {
  const input = parseJson(body);
  if (!isRecord(input) || input.GenerateSecret !== true) return null;
  const upstream = await forwardWithout(Buffer.from(JSON.stringify({ ...input, GenerateSecret: false })));
  const answer = parseJson(upstream.body);
  if (upstream.status !== 200 || !isRecord(answer) || !isRecord(answer.UserPoolClient)) return upstream;
  const client = answer.UserPoolClient;
  const clientId = String(client.ClientId ?? '');
  const secret = randomBytes(39).toString('base64url').toLowerCase();
  const salt = randomBytes(16);
  const scopes = Array.isArray(input.AllowedOAuthScopes) ? input.AllowedOAuthScopes.map(String) : [];
  const hash = await hashSecret(secret, salt);
  await store.change((clients) => {
    clients.clients[clientId] = {
      userPoolId: String(client.UserPoolId ?? input.UserPoolId ?? ''),
      salt: salt.toString('base64'),
      hash: hash.toString('base64'),
      scopes,
    };
  });
  const reshaped = { UserPoolClient: { ...client, ClientSecret: secret, AllowedOAuthScopes: scopes } };
  return { ...upstream, body: Buffer.from(JSON.stringify(reshaped)) };
}

async function runTrigger(
  options: MachineClientsOptions,
  event: Record<string, unknown>,
): Promise<Record<string, unknown> | null> {
  const url = `${options.lambdaEndpoint}/2015-03-31/functions/${encodeURIComponent(options.triggerFunctionName)}/invocations`;
  const response = await fetch(url, { method: 'POST', body: JSON.stringify(event) });
  const answer = (await response.json()) as unknown;
  if (!response.ok || response.headers.get('x-amz-function-error') || !isRecord(answer)) return null;
  return answer;
}

/** The client's stored entry when its credentials are right; the hash is computed either way (same timing). */
async function authenticate(
  store: ClientStore,
  credentials: { clientId: string; clientSecret: string } | null,
): Promise<StoredMachineClient | null> {
  const stored = credentials ? (await store.read()).clients[credentials.clientId] : undefined;
  const expected = stored?.hash ? Buffer.from(stored.hash, 'base64') : null;
  // The hash is computed even for an unknown client, so that the answer takes as long either way.
  const given = await hashSecret(
    credentials?.clientSecret ?? '',
    stored ? Buffer.from(stored.salt, 'base64') : randomBytes(16),
  );
  if (!credentials || !stored || !expected || expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return null;
  }
  return stored;
}

async function handleToken(
  options: MachineClientsOptions,
  store: ClientStore,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
  body: Buffer,
): Promise<boolean> {
  if (req.method !== 'POST' || url.pathname !== '/oauth2/token') return false;
  const form = new URLSearchParams(body.toString('utf8'));
  if (form.get('grant_type') !== 'client_credentials') return false;
  const refuse = (status: number, payload: Record<string, string>) =>
    send(
      req,
      res,
      status,
      { 'content-type': 'application/json', 'cache-control': 'no-store' },
      Buffer.from(JSON.stringify(payload)),
    );

  const credentials = clientCredentialsOf(req.headers.authorization, form);
  const stored = await authenticate(store, credentials);
  if (!credentials || !stored) {
    refuse(401, INVALID_CLIENT);
    return true;
  }
  const asked = (form.get('scope') ?? '').split(' ').filter(Boolean);
  if (asked.some((scope) => !stored.scopes.includes(scope))) {
    refuse(400, { error: 'invalid_scope', error_description: 'Invalid scope requested' });
    return true;
  }
  const scopes = asked.length > 0 ? asked : [...stored.scopes];

  const event = {
    version: '3',
    triggerSource: 'TokenGeneration_ClientCredentials',
    region: 'us-east-1',
    userPoolId: stored.userPoolId,
    userName: null,
    callerContext: { awsSdkVersion: 'cognito-local', clientId: credentials.clientId },
    request: { userAttributes: {}, groupConfiguration: {}, scopes },
    response: { claimsAndScopeOverrideDetails: null },
  };
  const answer = await runTrigger(options, event);
  const details = isRecord(answer?.response) ? answer.response.claimsAndScopeOverrideDetails : null;
  const access = isRecord(details) && isRecord(details.accessTokenGeneration) ? details.accessTokenGeneration : null;
  if (!answer) {
    // Cognito answers a failed trigger at the token endpoint as a refused client.
    refuse(401, INVALID_CLIENT);
    return true;
  }
  const added = isRecord(access?.claimsToAddOrOverride) ? access.claimsToAddOrOverride : {};
  const token = await signMachineToken(options, credentials.clientId, stored.userPoolId, scopes, added);
  sendJson(
    req,
    res,
    200,
    { access_token: token, expires_in: ACCESS_TOKEN_SECONDS, token_type: 'Bearer' },
    { 'content-type': 'application/json', 'cache-control': 'no-store' },
  );
  return true;
}

/** Claims the trigger may not override in a machine token. */
const RESERVED_CLAIMS = new Set([
  'sub',
  'client_id',
  'scope',
  'token_use',
  'iss',
  'exp',
  'iat',
  'jti',
  'auth_time',
  'aud',
]);

/** A machine access token as Cognito issues it, signed with cognito-local's key, with the trigger's claims. */
async function signMachineToken(
  options: MachineClientsOptions,
  clientId: string,
  userPoolId: string,
  scopes: readonly string[],
  added: Record<string, unknown>,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims = Object.fromEntries(Object.entries(added).filter(([name]) => !RESERVED_CLAIMS.has(name)));
  return new SignJWT({
    ...claims,
    client_id: clientId,
    token_use: 'access',
    scope: scopes.join(' '),
    auth_time: now,
    version: 2,
  })
    .setProtectedHeader({ alg: 'RS256', kid: 'CognitoLocal' })
    .setSubject(clientId)
    .setIssuer(`${options.endpoint.replace(/\/+$/, '')}/${userPoolId}`)
    .setIssuedAt(now)
    .setExpirationTime(now + ACCESS_TOKEN_SECONDS)
    .setJti(randomUUID())
    .sign(cognitoLocalKey());
}

/**
 * cognito-local answers USER_PASSWORD_AUTH for a user who must change a temporary password with the
 * NEW_PASSWORD_REQUIRED challenge without checking the password, and accepts any Session string in
 * RespondToAuthChallenge: anyone knowing an invited supplier's e-mail could set its password. Cognito
 * checks the temporary password first and binds the challenge to the session it issued. This guard
 * restores both: the password is checked through cognito-local's own hosted login (which compares it),
 * and only sessions issued after that check, for that user and for three minutes, are accepted.
 */
export class NewPasswordChallenges {
  private readonly sessions = new Map<string, { usernames: string[]; expiresAt: number }>();

  constructor(private readonly hostedUi: HostedUi) {}

  /**
   * cognito-local signs disabled users in, refreshes their tokens and completes their challenges;
   * Cognito answers NotAuthorizedException "User is disabled." to each.
   */
  async refuseDisabled(requestBody: Buffer, upstream: UpstreamResponse): Promise<AuthRefusal | null> {
    const username = signedInUser(requestBody, upstream);
    if (!username || !(await this.hostedUi.isDisabled(username))) return null;
    return { __type: 'NotAuthorizedException', message: 'User is disabled.' };
  }

  async admit(requestBody: Buffer, upstream: UpstreamResponse): Promise<AuthRefusal | null> {
    if (upstream.status !== 200) return null;
    const answer = parseJson(upstream.body);
    const request = parseJson(requestBody);
    if (!isRecord(answer) || answer.ChallengeName !== 'NEW_PASSWORD_REQUIRED' || !isRecord(request)) return null;
    const parameters = isRecord(request.AuthParameters) ? request.AuthParameters : {};
    const username = typeof parameters.USERNAME === 'string' ? parameters.USERNAME : '';
    const password = typeof parameters.PASSWORD === 'string' ? parameters.PASSWORD : '';
    const clientId = typeof request.ClientId === 'string' ? request.ClientId : '';
    if (!(await this.hostedUi.checkPassword(clientId, username, password))) {
      return { __type: 'NotAuthorizedException', message: 'Incorrect username or password.' };
    }
    const now = Date.now();
    for (const [key, value] of this.sessions) if (value.expiresAt < now) this.sessions.delete(key);
    if (typeof answer.Session === 'string') {
      // The answer may name the user by the e-mail it signed in with or by its Username (USER_ID_FOR_SRP).
      const parameters = isRecord(answer.ChallengeParameters) ? answer.ChallengeParameters : {};
      const usernames = [username, parameters.USER_ID_FOR_SRP, parameters.USERNAME]
        .filter((name): name is string => typeof name === 'string' && name.length > 0)
        .map((name) => name.toLowerCase());
      this.sessions.set(answer.Session, { usernames, expiresAt: now + 3 * 60_000 });
    }
    return null;
  }

  check(requestBody: Buffer): AuthRefusal | null {
    const request = parseJson(requestBody);
    if (!isRecord(request) || request.ChallengeName !== 'NEW_PASSWORD_REQUIRED') return null;
    const responses = isRecord(request.ChallengeResponses) ? request.ChallengeResponses : {};
    const username = typeof responses.USERNAME === 'string' ? responses.USERNAME.toLowerCase() : '';
    const session = typeof request.Session === 'string' ? this.sessions.get(request.Session) : undefined;
    if (!session || session.expiresAt < Date.now() || !session.usernames.includes(username)) {
      return { __type: 'NotAuthorizedException', message: 'Invalid session for the user.' };
    }
    this.sessions.delete(request.Session as string);
    return null;
  }
}

/** Who a successful sign-in, refresh or challenge answer is for: its ID token's username, else the request's. */
function signedInUser(requestBody: Buffer, upstream: UpstreamResponse): string | null {
  if (upstream.status !== 200) return null;
  const answer = parseJson(upstream.body);
  if (!isRecord(answer)) return null;
  const result = isRecord(answer.AuthenticationResult) ? answer.AuthenticationResult : null;
  if (result && typeof result.IdToken === 'string') {
    const payload = parseJson(Buffer.from(result.IdToken.split('.')[1] ?? '', 'base64url'));
    if (isRecord(payload) && typeof payload['cognito:username'] === 'string') return payload['cognito:username'];
  }
  const request = parseJson(requestBody);
  if (!isRecord(request)) return null;
  const parameters = isRecord(request.AuthParameters)
    ? request.AuthParameters
    : isRecord(request.ChallengeResponses)
      ? request.ChallengeResponses
      : {};
  return typeof parameters.USERNAME === 'string' ? parameters.USERNAME : null;
}
