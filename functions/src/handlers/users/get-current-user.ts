import { sessionRoutes } from '@portal/shared';
import { cognitoDirectoryFromEnv } from '../../adapters/cognito.js';
import { documentClient, tableName } from '../../adapters/dynamodb.js';
import { httpHandler } from '../../http/wrapper.js';
import { makeClientRepository } from '../../repositories/clients.js';
import { makeSupplierProfileRepository } from '../../repositories/supplier-profiles.js';
import { makeGetCurrentUser } from '../../use-cases/current-user.js';

const profiles = makeSupplierProfileRepository(documentClient, tableName());
const clients = makeClientRepository(documentClient, tableName());

const getCurrentUser = makeGetCurrentUser({
  directory: cognitoDirectoryFromEnv(),
  async companyNames(level, taxIds) {
    if (level === 'SUPPLIER') {
      const found = await profiles.getMany(taxIds);
      return new Map([...found].map(([taxId, profile]) => [taxId, profile.name]));
    }
    const companies = await Promise.all(taxIds.map((taxId) => clients.get(taxId)));
    return new Map(companies.flatMap((company) => (company ? [[company.taxId, company.name] as const] : [])));
  },
});

/** GET /users/me, the user-info call the navigation guard makes before each guarded route (spec §4). */
export const handler = httpHandler(sessionRoutes.getCurrentUser, ({ caller }) => getCurrentUser(caller));
