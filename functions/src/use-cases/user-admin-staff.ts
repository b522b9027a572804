import { NotFoundError, computeLevel, type InternalUser, type RouteQuery, type Routes } from '@portal/shared';
import type { Page } from '../repositories/page.js';
import { joined, type AccountTools, type AdminContext, type UserAdminDeps } from './user-admin-accounts.js';
import type { DirectoryUser } from './user-admin-ports.js';

type InternalUsersQuery = RouteQuery<Routes['listInternalUsers']>;

/**
 * The administration of staff accounts (spec §2 Employees): the pool's federated (corporate SSO) users, with
 * their level and the companies they act for, which an administrator assigns and unassigns.
 */
export function makeStaffAdmin(deps: UserAdminDeps, tools: AccountTools) {
  const { directory, clients } = deps;
  const { poolPage, auditEvent, entryOf, strayEntries } = tools;

  async function companiesByTaxId(): Promise<Map<string, string>> {
    return new Map((await clients.listAll()).map((client) => [client.taxId, client.name]));
  }

  function toInternalUser(user: DirectoryUser, companies: ReadonlyMap<string, string>): InternalUser {
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
  async function internalAccount(userId: string): Promise<DirectoryUser> {
    const user = await directory.getUser(userId);
    if (!user || !user.federated) throw new NotFoundError('ERROR_USER_NOT_FOUND', { userId });
    return user;
  }

  return {
    /** Staff accounts: the federated users of the pool, with their level and companies. */
    async listInternalUsers(query: InternalUsersQuery): Promise<Page<InternalUser>> {
      const [{ users, nextCursor }, companies] = await Promise.all([
        poolPage('internal', { limit: query.limit, cursor: query.cursor }, (user) => user.federated),
        companiesByTaxId(),
      ]);
      return { items: users.map((user) => toInternalUser(user, companies)), nextCursor };
    },

    /** Adds a company to a staff account's taxId list (it keeps the others); idempotent. */
    async assignClient(context: AdminContext, userId: string, client: string): Promise<InternalUser> {
      const [user, companies] = await Promise.all([internalAccount(userId), companiesByTaxId()]);
      if (!companies.has(client)) throw new NotFoundError('ERROR_CLIENT_NOT_FOUND', { client });
      if (user.taxIds.includes(client)) return toInternalUser(user, companies);

      const taxIds = [...user.taxIds, client];
      await directory.updateUser(user.id, { taxIds });
      const updated: DirectoryUser = { ...user, taxIds };
      await deps.commit({
        put: [{ taxId: client, entry: entryOf(updated) }],
        remove: await strayEntries(client, user),
        audit: auditEvent(context, 'CLIENT_ASSIGNED', user, { taxId: joined(user.taxIds) }, { taxId: joined(taxIds) }),
      });
      return toInternalUser(updated, companies);
    },

    /** Removes a company from a staff account's taxId list, and its e-mail about that company; idempotent. */
    async unassignClient(context: AdminContext, userId: string, client: string): Promise<InternalUser> {
      const [user, companies] = await Promise.all([internalAccount(userId), companiesByTaxId()]);
      if (!user.taxIds.includes(client)) {
        if (!companies.has(client)) throw new NotFoundError('ERROR_CLIENT_NOT_FOUND', { client });
        return toInternalUser(user, companies);
      }
      const taxIds = user.taxIds.filter((taxId) => taxId !== client);
      await directory.updateUser(user.id, { taxIds });
      const updated: DirectoryUser = { ...user, taxIds };
      await deps.commit({
        put: [],
        remove: [{ taxId: client, userId: user.id }, ...(await strayEntries(client, user))],
        audit: auditEvent(
          context,
          'CLIENT_UNASSIGNED',
          user,
          { taxId: joined(user.taxIds) },
          { taxId: joined(taxIds) },
        ),
      });
      return toInternalUser(updated, companies);
    },
  };
}
