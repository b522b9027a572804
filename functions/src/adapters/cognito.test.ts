import { describe, expect, it } from 'vitest';
import { PortalError } from '@portal/shared';
import { fakeCognito } from './cognito.fake.js';
import { appClientName, generateTemporaryPassword, makeCognitoDirectory, type CognitoClient } from './cognito.js';

const ids = () => ({ userPoolId: 'pool-1', clientId: 'web-client' });

/** A client that records the commands it is sent and answers `answer`. */
function recordingClient(answer: unknown = {}) {
  const sent: { name: string; input: Record<string, unknown> }[] = [];
  const client = {
    async send(command: { constructor: { name: string }; input: Record<string, unknown> }) {
      sent.push({ name: command.constructor.name, input: command.input });
      return answer;
    },
  } as unknown as CognitoClient;
  return { client, sent };
}

describe('the Cognito user directory', () => {
  it("creates a supplier with the e-mail as Username, a verified e-mail and Cognito's own message suppressed", async () => {
    const { client, sent } = recordingClient({
      User: { Username: 'new-sub', Attributes: [{ Name: 'email', Value: 'ana@proveedor.pe' }], Enabled: true },
    });

    const user = await makeCognitoDirectory(client, ids).createUser({
      email: 'ana@proveedor.pe',
      firstName: 'Ana',
      lastName: 'Quispe',
      taxIds: ['20456178325'],
      emailNotifications: false,
      temporaryPassword: 'Temporal#1234abcd',
    });

    expect(user.id).toBe('new-sub');
    expect(sent).toEqual([
      {
        name: 'AdminCreateUserCommand',
        input: {
          UserPoolId: 'pool-1',
          Username: 'ana@proveedor.pe',
          TemporaryPassword: 'Temporal#1234abcd',
          MessageAction: 'SUPPRESS',
          UserAttributes: [
            { Name: 'email', Value: 'ana@proveedor.pe' },
            { Name: 'email_verified', Value: 'true' },
            { Name: 'given_name', Value: 'Ana' },
            { Name: 'family_name', Value: 'Quispe' },
            { Name: 'custom:emailNotifications', Value: 'false' },
            { Name: 'custom:taxId', Value: '20456178325' },
          ],
        },
      },
    ]);
  });

  it('escapes quotes and backslashes inside a ListUsers filter, and asks for at most 60 users', async () => {
    const { client, sent } = recordingClient({ Users: [] });

    await makeCognitoDirectory(client, ids).listUsers({ limit: 500, emailPrefix: 'a"b\\c@' });

    expect(sent[0]!.input).toMatchObject({ Filter: 'email ^= "a\\"b\\\\c@"', Limit: 60 });
  });

  it('reads a federated user from its identities attribute, never from its username, and its SSO groups', async () => {
    const pool = fakeCognito();
    const staff = pool.addUser({
      username: 'plain-uuid',
      email: 'g@grupo.pe',
      federated: { groups: ['portal-admins'] },
    });
    const supplier = pool.addUser({ username: 'Corporativo_looks-federated', email: 'p@proveedor.pe' });
    const directory = makeCognitoDirectory(pool.client, ids);

    expect(await directory.getUser(staff.Username)).toMatchObject({ federated: true, groups: ['portal-admins'] });
    expect(await directory.getUser(supplier.Username)).toMatchObject({ federated: false, emailNotifications: true });
    expect(await directory.getUser('nobody')).toBeNull();
  });

  it('turns a pagination token Cognito refuses into ERROR_INVALID_CURSOR', async () => {
    const directory = makeCognitoDirectory(fakeCognito().client, ids);

    const error = await directory.listUsers({ limit: 10, token: 'forged' }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(PortalError);
    expect((error as PortalError).code).toBe('ERROR_INVALID_CURSOR');
  });

  it('starts a password reset for the web client, by Username', async () => {
    const { client, sent } = recordingClient();

    await makeCognitoDirectory(client, ids).startPasswordReset('user-sub');

    expect(sent).toEqual([{ name: 'ForgotPasswordCommand', input: { ClientId: 'web-client', Username: 'user-sub' } }]);
  });
});

describe('temporary passwords', () => {
  it("meet the pool's policy: 12 or more characters, upper and lower case, a digit and a symbol", () => {
    const samples = Array.from({ length: 200 }, generateTemporaryPassword);
    for (const password of samples) {
      expect(password.length).toBeGreaterThanOrEqual(12);
      expect(password).toMatch(/[A-Z]/);
      expect(password).toMatch(/[a-z]/);
      expect(password).toMatch(/\d/);
      expect(password).toMatch(/[^A-Za-z0-9]/);
      expect(password).not.toMatch(/[O0lI1\s]/);
    }
    expect(new Set(samples).size).toBe(samples.length);
  });
});

describe('appClientName', () => {
  it('keeps what Cognito accepts in an app client name, drops accents and hyphenates the rest', () => {
    expect(appClientName('20456178325 ERP de facturación (ñandú)')).toBe('20456178325 ERP de facturacion -nandu-');
    expect(appClientName('«»')).toBe('--');
    expect(appClientName('   ')).toBe('api-client');
    expect(appClientName('x'.repeat(300))).toHaveLength(128);
  });
});
