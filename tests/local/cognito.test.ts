import {
  AdminCreateUserCommand,
  AdminDisableUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  DeleteUserAttributesCommand,
  ForgotPasswordCommand,
  GetTokensFromRefreshTokenCommand,
  InitiateAuthCommand,
  ListUsersCommand,
  RespondToAuthChallengeCommand,
  SignUpCommand,
  UpdateUserAttributesCommand,
  UpdateUserPoolClientCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import type { Context, PreTokenGenerationTriggerEvent } from 'aws-lambda';
import { SignJWT, createRemoteJWKSet, decodeJwt, generateKeyPair, jwtVerify } from 'jose';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { webClientWriteAttributes } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as preTokenGeneration } from '../../functions/src/triggers/pre-token-generation.js';
import { ensureIdentity, type DemoUser, type IdentityOutputs } from '../../local/runtime/provision/identity.js';
import { issuer, jwksUrl, startCognito, type RunningCognito } from '../../local/stand-ins/cognito/cognito.js';
import { CORPORATE_SCOPES, corporateDirectory, startCorporateIdp } from '../../local/simulators/corporate-idp.js';
import { startLambdaEndpoint } from '../../local/stand-ins/lambda-endpoint.js';
import { ADVERTISED_IDLE_SECONDS, type RunningService } from '../../local/stand-ins/types.js';
import { CorporateSignInError, corporateSignIn } from '../support/corporate-sign-in.js';

const TRIGGER = 'portal-test-pre-token-generation';
const PASSWORD = 'Portal.Local1';
const PROVIDER = 'CorporateSSO';
const APP = 'http://localhost:5173';

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
    federated: { providerName: PROVIDER, subject: 'emp-1', groups: ['portal-staff'] },
  },
  admin: {
    username: 'admin@example.com',
    password: PASSWORD,
    firstName: 'Ana',
    lastName: 'Administradora',
    taxId: null,
    federated: { providerName: PROVIDER, subject: 'emp-2', groups: ['portal-admins', 'portal-staff'] },
  },
  newcomer: {
    username: 'nuevo@example.com',
    password: PASSWORD,
    firstName: 'Nora',
    lastName: 'Nueva',
    taxId: null,
    federated: { providerName: PROVIDER, subject: 'emp-3', groups: ['portal-staff'], provisioned: false },
  },
} satisfies Record<string, DemoUser>;

const HOSTED_UI_CLIENT = {
  callbackUrls: [`${APP}/login`],
  logoutUrls: [`${APP}/`],
  identityProviders: [PROVIDER],
};

let dir: string;
let lambda: RunningService | undefined;
let cognito: RunningCognito | undefined;
let ids: IdentityOutputs;
let ports: { lambda: number; cognito: number; cognitoInternal: number; idp: number };
let idp: RunningService & { issuer: string };
const IDP_CLIENT = { clientId: 'pool', clientSecret: 'secreto-de-prueba' };
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

async function provision(server: RunningCognito): Promise<IdentityOutputs> {
  const outputs = await ensureIdentity({
    endpoint: server.endpoint,
    stateFile: stateFile(),
    users: Object.values(USERS),
    hostedUi: HOSTED_UI_CLIENT,
  });
  server.federate({
    userPoolId: outputs.userPoolId,
    clientId: outputs.userPoolClientId,
    callbackUrls: HOSTED_UI_CLIENT.callbackUrls,
    logoutUrls: HOSTED_UI_CLIENT.logoutUrls,
    provider: {
      name: PROVIDER,
      issuer: idp.issuer,
      clientId: IDP_CLIENT.clientId,
      clientSecret: IDP_CLIENT.clientSecret,
      scopes: CORPORATE_SCOPES,
      groupsClaim: 'groups',
    },
  });
  return outputs;
}

function corporate(user: DemoUser, password = user.password) {
  return corporateSignIn({
    hostedUi: cognito?.endpoint ?? '',
    clientId: ids.userPoolClientId,
    redirectUri: `${APP}/login`,
    providerName: PROVIDER,
    email: user.username,
    password,
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
  const [lambdaPort, cognitoPort, internalPort, idpPort] = await freePorts(4, 4900, 4949);
  ports = {
    lambda: lambdaPort ?? 0,
    cognito: cognitoPort ?? 0,
    cognitoInternal: internalPort ?? 0,
    idp: idpPort ?? 0,
  };
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
  idp = await startCorporateIdp({
    port: ports.idp,
    host: '127.0.0.1',
    dataDir: dir,
    client: { ...IDP_CLIENT, redirectUris: [`http://127.0.0.1:${ports.cognito}/oauth2/idpresponse`] },
    users: corporateDirectory(Object.values(USERS)),
  });
  cognito = await startIdentityServer();
  sdk = new CognitoIdentityProviderClient({
    endpoint: cognito.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  ids = await provision(cognito);
}, 30_000);

afterAll(async () => {
  sdk?.destroy();
  await cognito?.stop();
  await idp?.stop();
  await lambda?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('local identity (cognito-local + proxy + PreTokenGeneration trigger)', () => {
  it('signs a supplier in with its password: SUPPLIER level and taxId claims in a verifiable ID token', async () => {
    const { idToken, expiresIn, tokenType } = await signIn(USERS.supplier);
    expect(tokenType).toBe('Bearer');
    expect(expiresIn).toBe(3600);
    const claims = decodeJwt(idToken);
    expect(claims).toMatchObject({ level: 'SUPPLIER', taxId: '20100070970', email: USERS.supplier.username });
    const verified = await verifyIdToken(idToken);
    expect(verified.iss).toBe(`http://127.0.0.1:${ports.cognito}/${ids.userPoolId}`);
    expect(verified.aud).toBe(ids.userPoolClientId);
    expect(verified.token_use).toBe('id');
  });

  it.each([
    ['manager', USERS.manager, 'MANAGER', '20512345678'],
    ['admin', USERS.admin, 'ADMIN', ''],
  ] as const)(
    'signs the %s in through the corporate IdP: level from its first group',
    async (_, user, level, taxId) => {
      const { idToken } = await corporate(user);
      const claims = decodeJwt(idToken);
      expect(claims.level).toBe(level);
      expect(claims.taxId).toBe(taxId);
      expect(claims.email).toBe(user.username);

      const verified = await verifyIdToken(idToken);
      expect(verified.iss).toBe(`http://127.0.0.1:${ports.cognito}/${ids.userPoolId}`);
      expect(verified.aud).toBe(ids.userPoolClientId);
      expect(verified.token_use).toBe('id');
    },
  );

  it('refuses a password sign-in of corporate staff: they have no password in the pool', async () => {
    await expect(signIn(USERS.manager)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
  });

  it('creates the federated user at its first corporate sign-in, and finds it again at the next', async () => {
    const first = decodeJwt((await corporate(USERS.newcomer)).idToken);
    expect(first).toMatchObject({ level: 'MANAGER', taxId: '', email: USERS.newcomer.username });
    const user = await sdk.send(
      new AdminGetUserCommand({ UserPoolId: ids.userPoolId, Username: USERS.newcomer.username }),
    );
    const attributes = Object.fromEntries(user.UserAttributes?.map((a) => [a.Name, a.Value]) ?? []);
    expect(JSON.parse(attributes.identities ?? '[]')).toEqual([
      expect.objectContaining({ providerName: PROVIDER, userId: 'emp-3', providerType: 'OIDC' }),
    ]);
    expect(JSON.parse(attributes['custom:groups'] ?? '[]')).toEqual(['portal-staff']);
    expect(attributes.given_name).toBe('Nora');

    const second = decodeJwt((await corporate(USERS.newcomer)).idToken);
    expect(second.sub).toBe(first.sub);
  });

  it('keeps a wrong corporate password at the IdP, with its Spanish message', async () => {
    const failure = await corporate(USERS.admin, 'Incorrecta.123').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CorporateSignInError);
    expect((failure as CorporateSignInError).body).toContain('Usuario o contraseña incorrectos.');
  });

  it('sends a disabled federated user back to the app with access_denied', async () => {
    await corporate(USERS.newcomer);
    await sdk.send(new AdminDisableUserCommand({ UserPoolId: ids.userPoolId, Username: USERS.newcomer.username }));
    await expect(corporate(USERS.newcomer)).rejects.toThrow('access_denied: User is disabled.');
  });

  it('checks a temporary password before the new-password challenge, and binds the challenge to its session', async () => {
    const email = 'invitado@example.com';
    await sdk.send(
      new AdminCreateUserCommand({
        UserPoolId: ids.userPoolId,
        Username: email,
        TemporaryPassword: 'Temporal.123',
        MessageAction: 'SUPPRESS',
        UserAttributes: [{ Name: 'email', Value: email }],
      }),
    );
    const start = (password: string) =>
      sdk.send(
        new InitiateAuthCommand({
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: ids.userPoolClientId,
          AuthParameters: { USERNAME: email, PASSWORD: password },
        }),
      );
    const answer = (session: string) =>
      sdk.send(
        new RespondToAuthChallengeCommand({
          ClientId: ids.userPoolClientId,
          ChallengeName: 'NEW_PASSWORD_REQUIRED',
          Session: session,
          ChallengeResponses: { USERNAME: email, NEW_PASSWORD: 'Definitiva.456' },
        }),
      );

    await expect(start('Adivinada.1')).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    await expect(answer('sesion-inventada')).rejects.toMatchObject({ name: 'NotAuthorizedException' });

    const challenge = await start('Temporal.123');
    expect(challenge.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
    const done = await answer(challenge.Session ?? '');
    expect(decodeJwt(done.AuthenticationResult?.IdToken ?? '').email).toBe(email);
    await expect(answer(challenge.Session ?? '')).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    expect((await start('Definitiva.456')).AuthenticationResult?.IdToken).toBeTruthy();
  });

  it('refuses a disabled user its password sign-in and its refresh, as Cognito does', async () => {
    const user: DemoUser = { ...USERS.supplier, username: 'suspendido@example.com' };
    await sdk.send(
      new AdminCreateUserCommand({
        UserPoolId: ids.userPoolId,
        Username: user.username,
        MessageAction: 'SUPPRESS',
        UserAttributes: [{ Name: 'email', Value: user.username }],
      }),
    );
    await sdk.send(
      new AdminSetUserPasswordCommand({
        UserPoolId: ids.userPoolId,
        Username: user.username,
        Password: user.password,
        Permanent: true,
      }),
    );
    const { refreshToken } = await signIn(user);

    await sdk.send(new AdminDisableUserCommand({ UserPoolId: ids.userPoolId, Username: user.username }));

    await expect(signIn(user)).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'User is disabled.' });
    await expect(
      sdk.send(new GetTokensFromRefreshTokenCommand({ ClientId: ids.userPoolClientId, RefreshToken: refreshToken })),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'User is disabled.' });
  });

  it('pages ListUsers with Limit and PaginationToken, as Cognito does', async () => {
    const all = await sdk.send(new ListUsersCommand({ UserPoolId: ids.userPoolId }));
    const total = all.Users?.length ?? 0;
    expect(total).toBeGreaterThan(2);
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = await sdk.send(
        new ListUsersCommand({ UserPoolId: ids.userPoolId, Limit: 2, PaginationToken: token }),
      );
      expect(page.Users?.length).toBeLessThanOrEqual(2);
      seen.push(...(page.Users ?? []).map((user) => user.Username ?? ''));
      token = page.PaginationToken;
    } while (token);
    expect(seen).toEqual(all.Users?.map((user) => user.Username));
  });

  it('refuses an authorize request with an unregistered callback or without PKCE', async () => {
    const base = {
      identity_provider: PROVIDER,
      client_id: ids.userPoolClientId,
      response_type: 'code',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    };
    const ask = (params: Record<string, string>) =>
      fetch(`${cognito?.endpoint}/oauth2/authorize?${new URLSearchParams(params)}`, { redirect: 'manual' });
    expect((await ask({ ...base, redirect_uri: 'http://evil.example/login' })).status).toBe(400);
    const { code_challenge: _, ...withoutPkce } = base;
    expect((await ask({ ...withoutPkce, redirect_uri: `${APP}/login` })).status).toBe(400);
    const ok = await ask({ ...base, redirect_uri: `${APP}/login` });
    expect(ok.status).toBe(302);
    expect(ok.headers.get('location')).toMatch(new RegExp(`^${idp.issuer}/auth\\?`));
  });

  it('refreshes with GetTokensFromRefreshToken (SDK command and raw JSON) through the proxy', async () => {
    const { refreshToken } = await corporate(USERS.admin);

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

  it('prints every code of a burst of reset requests, each as soon as its request is answered', async () => {
    // Concurrent requests interleave cognito-local's log lines, whose boxes are multi-byte characters: each
    // answered request's code must be in the log promptly (sonic-boom 2.x held such lines back, package.json
    // overrides it).
    const before = cognito?.codes().length ?? 0;
    const requests = 12;
    await Promise.all(
      Array.from({ length: requests }, () =>
        sdk.send(new ForgotPasswordCommand({ ClientId: ids.userPoolClientId, Username: USERS.supplier.username })),
      ),
    );
    // The stage reads the log every 100 ms.
    await expect.poll(() => (cognito?.codes().length ?? 0) - before, { timeout: 3_000 }).toBe(requests);
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

  it('keeps cognito-local\u2019s idle connections past the keep-alive time it advertises, as the stage\u2019s own servers do', async () => {
    // The proxy and the hosted UI reuse their connections to cognito-local: one it closed while they wrote into it
    // failed a corporate sign-in with "socket hang up".
    const socket = net.connect(ports.cognitoInternal, '127.0.0.1');
    socket.setEncoding('latin1');
    const seen = { text: '', closed: false };
    socket.on('data', (chunk: string) => (seen.text += chunk));
    socket.on('close', () => (seen.closed = true));
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const answered = (count: number) =>
      expect
        .poll(() => seen.text.match(/HTTP\/1\.1 \d{3}/g)?.length ?? 0, { timeout: 5_000, interval: 20 })
        .toBe(count);
    const request = `GET /${ids.userPoolId}/.well-known/jwks.json HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`;
    try {
      socket.write(request);
      await answered(1);
      expect(seen.text.toLowerCase()).toContain(`\r\nkeep-alive: timeout=${ADVERTISED_IDLE_SECONDS}\r\n`);
      // The advertised time idle and two seconds more (Node's default server had closed it by then): still open.
      await new Promise((resolve) => setTimeout(resolve, (ADVERTISED_IDLE_SECONDS + 2) * 1000));
      expect(seen.closed).toBe(false);
      socket.write(request);
      await answered(2);
    } finally {
      socket.destroy();
    }
  }, 20_000);

  it('finds the same pool, client and users again after a restart', async () => {
    await cognito?.stop();
    cognito = await startIdentityServer();
    const again = await provision(cognito);
    expect(again).toEqual(ids);
    expect(JSON.parse(await readFile(stateFile(), 'utf8'))).toEqual({
      userPoolId: ids.userPoolId,
      userPoolClientId: ids.userPoolClientId,
    });
    const { idToken } = await corporate(USERS.manager);
    expect((await verifyIdToken(idToken)).level).toBe('MANAGER');
  });
});

describe('the app client’s permissions, enforced as Cognito does', () => {
  const attributesOf = async (username: string) => {
    const user = await sdk.send(new AdminGetUserCommand({ UserPoolId: ids.userPoolId, Username: username }));
    return Object.fromEntries(user.UserAttributes?.map((attribute) => [attribute.Name, attribute.Value]) ?? []);
  };
  const unauthorizedWrite = {
    name: 'NotAuthorizedException',
    message: 'A client attempted to write unauthorized attribute',
    $metadata: expect.objectContaining({ httpStatusCode: 400 }),
  };

  it('refuses a supplier writing its own custom:taxId, and changes nothing', async () => {
    const { accessToken } = await signIn(USERS.supplier);
    const before = await attributesOf(USERS.supplier.username);

    await expect(
      sdk.send(
        new UpdateUserAttributesCommand({
          AccessToken: accessToken,
          UserAttributes: [
            { Name: 'given_name', Value: 'Cambiado' },
            { Name: 'custom:taxId', Value: '20100070970,20608172352' },
          ],
        }),
      ),
    ).rejects.toMatchObject(unauthorizedWrite);
    await expect(
      sdk.send(new DeleteUserAttributesCommand({ AccessToken: accessToken, UserAttributeNames: ['custom:taxId'] })),
    ).rejects.toMatchObject(unauthorizedWrite);

    expect(await attributesOf(USERS.supplier.username)).toEqual(before);
    const { idToken } = await signIn(USERS.supplier);
    expect(decodeJwt(idToken).taxId).toBe('20100070970');
  });

  it('answers a refused write with Cognito’s JSON error', async () => {
    const { accessToken } = await signIn(USERS.supplier);
    const response = await fetch(cognito?.endpoint ?? '', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-amz-json-1.1',
        'X-Amz-Target': 'AWSCognitoIdentityProviderService.UpdateUserAttributes',
      },
      body: JSON.stringify({
        AccessToken: accessToken,
        UserAttributes: [{ Name: 'custom:emailNotifications', Value: 'false' }],
      }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-amzn-errortype')).toBe('NotAuthorizedException');
    expect(await response.json()).toEqual({
      __type: 'NotAuthorizedException',
      message: 'A client attempted to write unauthorized attribute',
    });
  });

  it('still lets a supplier change its name', async () => {
    const { accessToken } = await signIn(USERS.supplier);
    await sdk.send(
      new UpdateUserAttributesCommand({
        AccessToken: accessToken,
        UserAttributes: [{ Name: 'given_name', Value: 'Paolita' }],
      }),
    );
    expect((await attributesOf(USERS.supplier.username)).given_name).toBe('Paolita');
    await sdk.send(
      new UpdateUserAttributesCommand({
        AccessToken: accessToken,
        UserAttributes: [{ Name: 'given_name', Value: USERS.supplier.firstName }],
      }),
    );
  });

  it('refuses a sign-up that sets custom:taxId, and creates nobody', async () => {
    const email = 'autoregistro@example.com';
    await expect(
      sdk.send(
        new SignUpCommand({
          ClientId: ids.userPoolClientId,
          Username: email,
          Password: 'Portal.Local1!',
          UserAttributes: [
            { Name: 'email', Value: email },
            { Name: 'custom:taxId', Value: '20608172352' },
          ],
        }),
      ),
    ).rejects.toMatchObject(unauthorizedWrite);
    await expect(
      sdk.send(new AdminGetUserCommand({ UserPoolId: ids.userPoolId, Username: email })),
    ).rejects.toMatchObject({ name: 'UserNotFoundException' });
  });

  it('refuses a forged access token (another key) naming a real user', async () => {
    const { accessToken } = await signIn(USERS.supplier);
    const claims = decodeJwt(accessToken);
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'CognitoLocal' })
      .sign(privateKey);

    await expect(
      sdk.send(
        new UpdateUserAttributesCommand({ AccessToken: forged, UserAttributes: [{ Name: 'given_name', Value: 'X' }] }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Invalid Access Token' });
    expect((await attributesOf(USERS.supplier.username)).given_name).toBe(USERS.supplier.firstName);
  });

  it('fails a corporate sign-in whose mapped attributes the client may not write', async () => {
    const update = (writeAttributes: string[]) =>
      sdk.send(
        new UpdateUserPoolClientCommand({
          UserPoolId: ids.userPoolId,
          ClientId: ids.userPoolClientId,
          WriteAttributes: writeAttributes,
        }),
      );
    await update(webClientWriteAttributes(false));
    try {
      await expect(corporate(USERS.admin)).rejects.toThrow(
        'invalid_request: A client attempted to write unauthorized attribute',
      );
    } finally {
      await update(webClientWriteAttributes(true));
    }
    expect(decodeJwt((await corporate(USERS.admin)).idToken).level).toBe('ADMIN');
  });

  it('refuses staff rewriting their own groups: hosted-UI tokens lack the scope', async () => {
    const { accessToken } = await corporate(USERS.manager);
    await expect(
      sdk.send(
        new UpdateUserAttributesCommand({
          AccessToken: accessToken,
          UserAttributes: [{ Name: 'custom:groups', Value: '["portal-admins"]' }],
        }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Access Token does not have required scopes' });
    expect(JSON.parse((await attributesOf(USERS.manager.username))['custom:groups'] ?? '[]')).toEqual(['portal-staff']);
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
