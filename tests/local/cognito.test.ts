import {
  CognitoIdentityProviderClient,
  ForgotPasswordCommand,
  GetTokensFromRefreshTokenCommand,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import type { Context, PreTokenGenerationTriggerEvent } from 'aws-lambda';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as preTokenGeneration } from '../../functions/src/triggers/pre-token-generation.js';
import { ensureIdentity, type DemoUser, type IdentityOutputs } from '../../infra/local/provision/identity.js';
import { issuer, jwksUrl, startCognito, type RunningCognito } from '../../infra/local/services/cognito.js';
import { startLambdaEndpoint } from '../../infra/local/services/lambda-endpoint.js';
import type { RunningService } from '../../infra/local/services/types.js';

const TRIGGER = 'portal-test-pre-token-generation';
const PASSWORD = 'Portal.Local1';

const USERS = {
  supplier: {
    username: 'proveedor@example.com',
    password: PASSWORD,
    firstName: 'Paola',
    lastName: 'Proveedora',
    taxId: '20100070970',
  },
  manager: {
    username: 'gestor@example.com',
    password: PASSWORD,
    firstName: 'Gonzalo',
    lastName: 'Gestor',
    taxId: '20512345678',
    federated: { providerName: 'CorporateSSO', groups: ['portal-staff'] },
  },
  admin: {
    username: 'admin@example.com',
    password: PASSWORD,
    firstName: 'Ana',
    lastName: 'Administradora',
    taxId: null,
    federated: { providerName: 'CorporateSSO', groups: ['portal-admins', 'portal-staff'] },
  },
} satisfies Record<string, DemoUser>;

let dir: string;
let lambda: RunningService | undefined;
let cognito: RunningCognito | undefined;
let ids: IdentityOutputs;
let ports: { lambda: number; cognito: number; cognitoInternal: number };
let sdk: CognitoIdentityProviderClient;

function stateFile(): string {
  return path.join(dir, 'identity.json');
}

function startIdentityServer(): Promise<RunningCognito> {
  return startCognito({
    port: ports.cognito,
    internalPort: ports.cognitoInternal,
    host: '127.0.0.1',
    dataDir: dir,
    lambdaEndpoint: lambda?.endpoint ?? '',
    triggerFunctionName: TRIGGER,
  });
}

async function signIn(user: DemoUser, password = user.password) {
  const answer = await sdk.send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: ids.userPoolClientId,
      AuthParameters: { USERNAME: user.username, PASSWORD: password },
    }),
  );
  const result = answer.AuthenticationResult;
  if (!result?.IdToken || !result.RefreshToken || !result.AccessToken) throw new Error('sign-in without tokens');
  return {
    idToken: result.IdToken,
    refreshToken: result.RefreshToken,
    accessToken: result.AccessToken,
    expiresIn: result.ExpiresIn,
    tokenType: result.TokenType,
  };
}

async function verifyIdToken(idToken: string) {
  const endpoint = cognito?.endpoint ?? '';
  const keys = createRemoteJWKSet(new URL(jwksUrl(endpoint, ids.userPoolId)));
  const { payload } = await jwtVerify(idToken, keys, {
    issuer: issuer(endpoint, ids.userPoolId),
    audience: ids.userPoolClientId,
    algorithms: ['RS256'],
  });
  return payload;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'portal-cognito-'));
  const [lambdaPort, cognitoPort, internalPort] = await freePorts(3, 4900, 4949);
  ports = { lambda: lambdaPort ?? 0, cognito: cognitoPort ?? 0, cognitoInternal: internalPort ?? 0 };
  lambda = await startLambdaEndpoint({
    port: ports.lambda,
    host: '127.0.0.1',
    functions: {
      [TRIGGER]: async (event) =>
        preTokenGeneration(event as PreTokenGenerationTriggerEvent, {} as Context, () => undefined),
      failing: async () => {
        throw new TypeError('fallo de prueba');
      },
    },
    log: () => undefined,
  });
  cognito = await startIdentityServer();
  sdk = new CognitoIdentityProviderClient({
    endpoint: cognito.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  ids = await ensureIdentity({ endpoint: cognito.endpoint, stateFile: stateFile(), users: Object.values(USERS) });
}, 30_000);

afterAll(async () => {
  sdk?.destroy();
  await cognito?.stop();
  await lambda?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('local identity (cognito-local + proxy + PreTokenGeneration trigger)', () => {
  it.each([
    ['supplier', USERS.supplier, 'SUPPLIER', '20100070970'],
    ['manager', USERS.manager, 'MANAGER', '20512345678'],
    ['admin', USERS.admin, 'ADMIN', ''],
  ] as const)('signs the %s in with level and taxId claims in a verifiable ID token', async (_, user, level, taxId) => {
    const { idToken, expiresIn, tokenType } = await signIn(user);
    expect(tokenType).toBe('Bearer');
    expect(expiresIn).toBe(3600);
    const claims = decodeJwt(idToken);
    expect(claims.level).toBe(level);
    expect(claims.taxId).toBe(taxId);
    expect(claims.email).toBe(user.username);

    const verified = await verifyIdToken(idToken);
    expect(verified.iss).toBe(`http://127.0.0.1:${ports.cognito}/${ids.userPoolId}`);
    expect(verified.aud).toBe(ids.userPoolClientId);
    expect(verified.token_use).toBe('id');
  });

  it('refreshes with GetTokensFromRefreshToken (SDK command and raw JSON) through the proxy', async () => {
    const { refreshToken } = await signIn(USERS.admin);

    const viaSdk = await sdk.send(
      new GetTokensFromRefreshTokenCommand({ ClientId: ids.userPoolClientId, RefreshToken: refreshToken }),
    );
    expect(viaSdk.AuthenticationResult?.TokenType).toBe('Bearer');
    expect(viaSdk.AuthenticationResult?.ExpiresIn).toBeGreaterThan(0);
    expect(viaSdk.AuthenticationResult?.RefreshToken).toBe(refreshToken);
    const refreshed = await verifyIdToken(viaSdk.AuthenticationResult?.IdToken ?? '');
    expect(refreshed.level).toBe('ADMIN');

    const response = await fetch(cognito?.endpoint ?? '', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-amz-json-1.1',
        'X-Amz-Target': 'AWSCognitoIdentityProviderService.GetTokensFromRefreshToken',
        Origin: 'http://localhost:5173',
      },
      body: JSON.stringify({ ClientId: ids.userPoolClientId, RefreshToken: refreshToken }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const body = (await response.json()) as { AuthenticationResult: Record<string, unknown> };
    expect(Object.keys(body.AuthenticationResult).sort()).toEqual(
      ['AccessToken', 'ExpiresIn', 'IdToken', 'RefreshToken', 'TokenType'].sort(),
    );
    const payload = await verifyIdToken(String(body.AuthenticationResult.IdToken));
    expect(payload.level).toBe('ADMIN');
  });

  it('answers NotAuthorizedException to a wrong password, an unknown user and a bad refresh token', async () => {
    await expect(signIn(USERS.supplier, 'Incorrecta.123')).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    });
    await expect(signIn({ ...USERS.supplier, username: 'nadie@example.com' })).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    });
    await expect(
      sdk.send(
        new GetTokensFromRefreshTokenCommand({ ClientId: ids.userPoolClientId, RefreshToken: 'no-es-un-token' }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException' });
  });

  it('keeps CORS working for a browser at another origin', async () => {
    const preflight = await fetch(cognito?.endpoint ?? '', {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,x-amz-target,x-amz-user-agent,cache-control',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('x-amz-target');

    const error = await fetch(cognito?.endpoint ?? '', {
      method: 'POST',
      headers: {
        Origin: 'http://localhost:5173',
        'Content-Type': 'application/x-amz-json-1.1',
        'X-Amz-Target': 'AWSCognitoIdentityProviderService.InitiateAuth',
      },
      body: JSON.stringify({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: ids.userPoolClientId,
        AuthParameters: { USERNAME: USERS.manager.username, PASSWORD: 'mala' },
      }),
    });
    expect(error.status).toBe(400);
    expect(error.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(await error.json()).toMatchObject({ __type: 'NotAuthorizedException' });
  });

  it('serves OpenID discovery with the issuer and JWKS URL of the tokens', async () => {
    const endpoint = cognito?.endpoint ?? '';
    const response = await fetch(`${endpoint}/${ids.userPoolId}/.well-known/openid-configuration`);
    expect(await response.json()).toMatchObject({
      issuer: issuer(endpoint, ids.userPoolId),
      jwks_uri: jwksUrl(endpoint, ids.userPoolId),
    });
    const jwks = (await (await fetch(jwksUrl(endpoint, ids.userPoolId))).json()) as { keys: unknown[] };
    expect(jwks.keys.length).toBeGreaterThan(0);
  });

  it('captures the codes cognito-local prints and logs its output', async () => {
    const since = new Date();
    await sdk.send(new ForgotPasswordCommand({ ClientId: ids.userPoolClientId, Username: USERS.supplier.username }));
    const code = await cognito?.waitForCode(USERS.supplier.username, { since });
    expect(code).toMatch(/^\d{6}$/);
    expect(cognito?.lastCodeFor(USERS.supplier.username)).toBe(code);
    expect(cognito?.readCodes()).toContain(code);
    expect(cognito?.codes().at(-1)).toMatchObject({
      destination: USERS.supplier.username,
      operation: 'ForgotPassword',
    });
    const log = await readFile(path.join(dir, 'logs', 'cognito.log'), 'utf8');
    expect(log).toContain('Cognito Local running on http://127.0.0.1:');
  });

  it('speaks the Lambda Invoke API: unknown function 404, handler error as Unhandled', async () => {
    const endpoint = lambda?.endpoint ?? '';
    const missing = await fetch(`${endpoint}/2015-03-31/functions/nope/invocations`, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-amzn-errortype')).toBe('ResourceNotFoundException');
    expect(await missing.json()).toMatchObject({ __type: 'ResourceNotFoundException' });

    const failing = await fetch(`${endpoint}/2015-03-31/functions/failing/invocations`, { method: 'POST', body: '{}' });
    expect(failing.status).toBe(200);
    expect(failing.headers.get('x-amz-function-error')).toBe('Unhandled');
    expect(await failing.json()).toMatchObject({ errorType: 'TypeError', errorMessage: 'fallo de prueba' });
  });

  it('finds the same pool, client and users again after a restart', async () => {
    await cognito?.stop();
    cognito = await startIdentityServer();
    const again = await ensureIdentity({
      endpoint: cognito.endpoint,
      stateFile: stateFile(),
      users: Object.values(USERS),
    });
    expect(again).toEqual(ids);
    expect(JSON.parse(await readFile(stateFile(), 'utf8'))).toEqual(ids);
    const { idToken } = await signIn(USERS.manager);
    expect((await verifyIdToken(idToken)).level).toBe('MANAGER');
  });
});

/** `count` ports of [from, to] nobody listens on, probed on 127.0.0.1 from a random start. */
async function freePorts(count: number, from: number, to: number): Promise<number[]> {
  const size = to - from + 1;
  const start = Math.floor(Math.random() * size);
  const found: number[] = [];
  for (let i = 0; i < size && found.length < count; i++) {
    const port = from + ((start + i) % size);
    if (await isFree(port)) found.push(port);
  }
  if (found.length < count) throw new Error(`No hay ${count} puertos libres entre ${from} y ${to}`);
  return found;
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
