import { NotFoundError, computeLevel, type AuditAction, type InternalUser } from '@portal/shared';
import { auditEvent, joined, type AdminContext, type UserAdminDeps } from '../user-admin-accounts.js';
import type { AccountChange, DirectoryUser } from '../user-admin-ports.js';

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

/**
 * A staff account's companies set to `taxIds`: in Cognito first (the commit point), then its index entries
 * (`entries`, given the account as it is now) with the audit event. Answers the account as the screen shows it.
 */
export async function setCompanies(
  deps: UserAdminDeps,
  context: AdminContext,
  change: {
    readonly user: DirectoryUser;
    readonly taxIds: string[];
    readonly action: Extract<AuditAction, 'CLIENT_ASSIGNED' | 'CLIENT_UNASSIGNED'>;
    readonly companies: ReadonlyMap<string, string>;
  },
  entries: (updated: DirectoryUser) => Promise<Pick<AccountChange, 'put' | 'remove'>>,
): Promise<InternalUser> {
  const { user, taxIds } = change;
  await deps.directory.updateUser(user.id, { taxIds });
  const updated: DirectoryUser = { ...user, taxIds };
  await deps.commit({
    ...(await entries(updated)),
    audit: auditEvent(deps, context, change.action, user, { taxId: joined(user.taxIds) }, { taxId: joined(taxIds) }),
  });
  return toInternalUser(deps, updated, change.companies);
}
