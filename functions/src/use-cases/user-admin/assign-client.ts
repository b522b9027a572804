import { NotFoundError, type InternalUser } from '@portal/shared';
import {
  auditEvent,
  entryOf,
  joined,
  strayEntries,
  type AdminContext,
  type UserAdminDeps,
} from '../user-admin-accounts.js';
import type { DirectoryUser } from '../user-admin-ports.js';
import { companiesByTaxId, internalAccount, toInternalUser } from './staff-accounts.js';

/** Adds a company to a staff account's taxId list (it keeps the others); idempotent. */
export async function assignClient(
  deps: UserAdminDeps,
  context: AdminContext,
  userId: string,
  client: string,
): Promise<InternalUser> {
  const [user, companies] = await Promise.all([internalAccount(deps, userId), companiesByTaxId(deps)]);
  if (!companies.has(client)) throw new NotFoundError('ERROR_CLIENT_NOT_FOUND', { client });
  if (user.taxIds.includes(client)) return toInternalUser(deps, user, companies);

  const taxIds = [...user.taxIds, client];
  await deps.directory.updateUser(user.id, { taxIds });
  const updated: DirectoryUser = { ...user, taxIds };
  await deps.commit({
    put: [{ taxId: client, entry: entryOf(updated) }],
    remove: await strayEntries(deps, client, user),
    audit: auditEvent(
      deps,
      context,
      'CLIENT_ASSIGNED',
      user,
      { taxId: joined(user.taxIds) },
      { taxId: joined(taxIds) },
    ),
  });
  return toInternalUser(deps, updated, companies);
}
