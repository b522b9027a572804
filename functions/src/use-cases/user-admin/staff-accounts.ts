import { NotFoundError, computeLevel, type InternalUser } from '@portal/shared';
import { joined, type UserAdminDeps } from '../user-admin-accounts.js';
import type { DirectoryUser } from '../user-admin-ports.js';

/**
 * What the administration of staff accounts shares (spec §2 Employees): the pool's federated (corporate SSO) users,
 * with their level and the companies they act for.
 */

export async function companiesByTaxId(deps: Pick<UserAdminDeps, 'clients'>): Promise<Map<string, string>> {
  return new Map((await deps.clients.listAll()).map((client) => [client.taxId, client.name]));
}

export function toInternalUser(
  deps: Pick<UserAdminDeps, 'adminGroupName'>,
  user: DirectoryUser,
  companies: ReadonlyMap<string, string>,
): InternalUser {
  return {
    id: user.id,
    taxId: joined(user.taxIds),
    firstName: user.firstName,
    lastName: user.lastName,
    role: computeLevel({ federated: true, groups: [...user.groups], adminGroupName: deps.adminGroupName }),
    companyName: user.taxIds.length > 0 ? user.taxIds.map((t) => companies.get(t) ?? t).join(', ') : null,
    email: user.email,
    enabled: user.enabled,
    status: user.status,
    createdAt: user.createdAt,
  };
}

/** A staff account: only corporate SSO (federated) users are internal users. */
export async function internalAccount(deps: Pick<UserAdminDeps, 'directory'>, userId: string): Promise<DirectoryUser> {
  const user = await deps.directory.getUser(userId);
  if (!user || !user.federated) throw new NotFoundError('ERROR_USER_NOT_FOUND', { userId });
  return user;
}
