import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { adminUserGlobalSignOut, type SignOutAnswer } from '../../local/stand-ins/cognito/access.js';

/**
 * The local Cognito proxy's AdminUserGlobalSignOut over cognito-local's store: a store directory written
 * as cognito-local keeps it, and cognito-local's API as a fake that records what it was asked.
 */
const POOL = 'local_1nk1UnJk';
const dirs: string[] = [];

function store(users: Record<string, { RefreshTokens?: string[] }>) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cognito-store-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, `${POOL}.json`), JSON.stringify({ Users: users, Options: {} }));
  writeFileSync(
    path.join(dir, 'clients.json'),
    JSON.stringify({
      Clients: { other: { ClientId: 'other', UserPoolId: 'local_Other' }, web: { ClientId: 'web', UserPoolId: POOL } },
    }),
  );
  return dir;
}

function cognitoLocal(known: Record<string, string>) {
  const calls: { operation: string; input: Record<string, unknown> }[] = [];
  const call = async (operation: string, input: Record<string, unknown>): Promise<SignOutAnswer> => {
    calls.push({ operation, input });
    if (operation === 'AdminGetUser') {
      const username = known[input.Username as string];
      return username
        ? { status: 200, body: { Username: username } }
        : { status: 400, body: { __type: 'UserNotFoundException', message: 'User does not exist.' } };
    }
    return { status: 200, body: {} };
  };
  return { call, calls };
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('AdminUserGlobalSignOut on the local stage', () => {
  it("revokes every refresh token of the user, found by e-mail, through the pool's client", async () => {
    const dir = store({ 'sub-ana': { RefreshTokens: ['r1', 'r2'] }, 'sub-beto': { RefreshTokens: ['r3'] } });
    const local = cognitoLocal({ 'ana@pruebas.pe': 'sub-ana' });

    const answer = await adminUserGlobalSignOut(dir, local.call, { UserPoolId: POOL, Username: 'ana@pruebas.pe' });

    expect(answer).toEqual({ status: 200, body: {} });
    expect(local.calls.filter((c) => c.operation === 'RevokeToken').map((c) => c.input)).toEqual([
      { Token: 'r1', ClientId: 'web' },
      { Token: 'r2', ClientId: 'web' },
    ]);
  });

  it('answers an unknown user with UserNotFoundException and revokes nothing', async () => {
    const dir = store({ 'sub-ana': { RefreshTokens: ['r1'] } });
    const local = cognitoLocal({});

    const answer = await adminUserGlobalSignOut(dir, local.call, { UserPoolId: POOL, Username: 'nadie' });

    expect(answer).toEqual({ status: 400, body: { __type: 'UserNotFoundException', message: 'User does not exist.' } });
    expect(local.calls.map((c) => c.operation)).toEqual(['AdminGetUser']);
  });

  it('refuses a request without a valid pool id or Username, before reading any file', async () => {
    const local = cognitoLocal({});
    for (const request of [
      { UserPoolId: '../../etc/passwd', Username: 'ana' },
      { UserPoolId: POOL, Username: '' },
      { UserPoolId: POOL, Username: 'x'.repeat(129) },
      'no es un objeto',
    ]) {
      const answer = await adminUserGlobalSignOut('/nonexistent', local.call, request);
      expect(answer.status).toBe(400);
      expect((answer.body as { __type: string }).__type).toBe('InvalidParameterException');
    }
    expect(local.calls).toEqual([]);
  });

  it('succeeds for a user who holds no refresh token', async () => {
    const dir = store({ 'sub-ana': {} });
    const local = cognitoLocal({ 'sub-ana': 'sub-ana' });
    expect(await adminUserGlobalSignOut(dir, local.call, { UserPoolId: POOL, Username: 'sub-ana' })).toEqual({
      status: 200,
      body: {},
    });
  });
});
