import type { InternalUser, RouteQuery, Routes } from '@portal/shared';
import type { Page } from '../../repositories/page.js';
import { poolPage, type UserAdminDeps } from '../user-admin-accounts.js';
import { companiesByTaxId, toInternalUser } from './staff-accounts.js';

type InternalUsersQuery = RouteQuery<Routes['listInternalUsers']>;

/** Staff accounts: the federated users of the pool, with their level and companies. */
export async function listInternalUsers(
  deps: Pick<UserAdminDeps, 'directory' | 'clients' | 'adminGroupName'>,
  query: InternalUsersQuery,
): Promise<Page<InternalUser>> {
  const [{ users, nextCursor }, companies] = await Promise.all([
    poolPage(deps, 'internal', { limit: query.limit, cursor: query.cursor }, (user) => user.federated),
    companiesByTaxId(deps),
  ]);
  return { items: users.map((user) => toInternalUser(deps, user, companies)), nextCursor };
}
