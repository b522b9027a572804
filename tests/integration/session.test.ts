import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { SignJWT, decodeJwt, generateKeyPair, importJWK, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { routes } from '@portal/shared';
import { call, idTokenOf } from '../support/api.js';
import { demoUser, stage } from '../support/stage.js';

type SigningKey = Awaited<ReturnType<typeof importJWK>>;

/** The key cognito-local signs with: lets a test mint a token the stand-in could have issued. */
function cognitoLocalKey(): Promise<SigningKey> {
  const require = createRequire(import.meta.url);
  const file = require.resolve('cognito-local/lib/keys/cognitoLocal.private.json');
  return importJWK((JSON.parse(readFileSync(file, 'utf8')) as { jwk: JWK }).jwk, 'RS256');
}

async function mint(
  claims: Record<string, unknown>,
  key: SigningKey | Awaited<ReturnType<typeof generateKeyPair>>['privateKey'],
  kid = 'CognitoLocal',
) {
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid }).sign(key);
}

describe('signing in as each demo role', () => {
  it.each(stage().demoUsers.map((user) => [user.username, user] as const))(
    '%s gets its level and taxId from the token',
    async (_, user) => {
      const token = await idTokenOf(user.username, user.password);
      const me = await call(routes.getCurrentUser, { token });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ email: user.username, level: user.role, taxId: user.taxId });
      expect(me.body.firstName).not.toBe('');
      expect(me.body.lastName).not.toBe('');
    },
  );

  it('signs staff in only through the corporate IdP: ADMIN by first group, MANAGER otherwise', async () => {
    const staff = stage().demoUsers.filter((user) => user.signIn === 'corporate');
    expect(staff.map((user) => user.role).sort()).toEqual(['ADMIN', 'MANAGER', 'MANAGER', 'MANAGER']);
    const { cognitoEndpoint, region, userPoolClientId } = stage();
    const cognito = new CognitoIdentityProviderClient({
      region,
      endpoint: cognitoEndpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    for (const user of staff) {
      const claims = decodeJwt(await idTokenOf(user.username, user.password));
      expect(claims).toMatchObject({ level: user.role, email: user.username, taxId: user.taxId ?? '' });
      // The IdP password is not a portal password.
      await expect(
        cognito.send(
          new InitiateAuthCommand({
            AuthFlow: 'USER_PASSWORD_AUTH',
            ClientId: userPoolClientId,
            AuthParameters: { USERNAME: user.username, PASSWORD: user.password },
          }),
        ),
      ).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    }
  });

  it('verifies the session and reports the active company', async () => {
    const manager = demoUser('MANAGER');
    const token = await idTokenOf(manager.username, manager.password);
    const [first, second] = manager.taxId!.split(',');
    const session = await call(routes.verifySession, { token, headers: { 'x-company-id': second! } });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({
      valid: true,
      level: 'MANAGER',
      activeCompany: second,
      companies: [first, second],
    });
    expect(Date.parse(session.body.expiresAt)).toBeGreaterThan(Date.now());
  });
});

describe('the JWT authorizer of the local gateway', () => {
  it('answers 401 without a token', async () => {
    const response = await call(routes.listInvoices, { token: null });
    expect(response.status).toBe(401);
  });

  it('answers 401 to a token signed by another key', async () => {
    const supplier = demoUser('SUPPLIER');
    const genuine = decodeJwt(await idTokenOf(supplier.username, supplier.password));
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await mint({ ...genuine, level: 'ADMIN' }, privateKey);
    expect((await call(routes.getCurrentUser, { token: forged })).status).toBe(401);
  });

  it('answers 401 to an expired token, a foreign issuer and a foreign audience, even well signed', async () => {
    const supplier = demoUser('SUPPLIER');
    const genuine = decodeJwt(await idTokenOf(supplier.username, supplier.password));
    const key = await cognitoLocalKey();
    const now = Math.floor(Date.now() / 1000);
    const wellSigned = await mint({ ...genuine, iat: now - 60, exp: now + 600 }, key);
    // The control: the same minting gives an accepted token, so the refusals below are about one claim each.
    expect((await call(routes.getCurrentUser, { token: wellSigned })).status).toBe(200);
    const expired = await mint({ ...genuine, iat: now - 7200, exp: now - 3600 }, key);
    const otherIssuer = await mint({ ...genuine, exp: now + 600, iss: 'http://127.0.0.1:1/other-pool' }, key);
    const otherAudience = await mint({ ...genuine, exp: now + 600, aud: 'another-client' }, key);
    for (const token of [expired, otherIssuer, otherAudience]) {
      expect((await call(routes.getCurrentUser, { token })).status).toBe(401);
    }
  });

  it('lets the health checks and the OpenAPI document through without a token', async () => {
    for (const def of [routes.healthcheck, routes.heartbeat]) {
      const response = await call(def);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ status: 'ok', version: '1.0.5' });
    }
    const openapi = await call(routes.openapi);
    expect(openapi.status).toBe(200);
    expect(Object.keys(openapi.body.paths)).toContain('/suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}');
  });
});
