import { describe, expect, it } from 'vitest';
import type { Caller } from '../http/caller.js';
import { makeGetCurrentUser } from './current-user.js';
import type { DirectoryUser } from './user-admin-ports.js';

const caller: Caller = {
  sub: 'sub-1',
  username: 'user-1',
  email: 'gestor@demo.pe',
  firstName: 'Carmen',
  lastName: 'Gutiérrez',
  level: 'MANAGER',
  taxIds: ['20100070970', '20603415800'],
  groups: ['portal-staff'],
  activeCompany: '20100070970',
  expiresAt: 0,
  signIn: 'PASSWORD',
  txId: 'test-tx',
};

function directoryWith(account: Partial<DirectoryUser> | null) {
  const asked: string[] = [];
  return {
    asked,
    directory: {
      getUser: async (id: string) => {
        asked.push(id);
        return account ? ({ id, enabled: true, ...account } as DirectoryUser) : null;
      },
    },
    companyNames: async () => new Map([['20100070970', 'Corporación Andina de Alimentos S.A.A.']]),
  };
}

describe('the user-info call of the navigation guard', () => {
  it('answers the session user from the token once the pool confirms the account by its username', async () => {
    const { asked, directory, companyNames } = directoryWith({});
    const user = await makeGetCurrentUser({ directory, companyNames })(caller);
    expect(asked).toEqual(['user-1']);
    expect(user).toEqual({
      id: 'sub-1',
      firstName: 'Carmen',
      lastName: 'Gutiérrez',
      group: 'portal-staff',
      email: 'gestor@demo.pe',
      level: 'MANAGER',
      taxId: '20100070970,20603415800',
      companies: [
        { taxId: '20100070970', name: 'Corporación Andina de Alimentos S.A.A.' },
        { taxId: '20603415800', name: null },
      ],
    });
  });

  it('answers 404 ERROR_USER_NOT_FOUND for an account the pool no longer holds', async () => {
    const { directory } = directoryWith(null);
    await expect(makeGetCurrentUser({ directory, companyNames: async () => new Map() })(caller)).rejects.toMatchObject({
      statusCode: 404,
      code: 'ERROR_USER_NOT_FOUND',
    });
  });

  it('answers 403 ERROR_USER_DISABLED for a disabled account, before its token expires', async () => {
    const { directory } = directoryWith({ enabled: false });
    await expect(makeGetCurrentUser({ directory, companyNames: async () => new Map() })(caller)).rejects.toMatchObject({
      statusCode: 403,
      code: 'ERROR_USER_DISABLED',
    });
  });
});
