import { NotFoundError, type InternalUser } from '@portal/shared';
import { entryOf, strayEntries, type AdminContext, type UserAdminDeps } from '../user-admin-accounts.js';
import { companiesByTaxId, internalAccount, setCompanies, toInternalUser } from './staff-accounts.js';

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
  return setCompanies(deps, context, { user, taxIds, action: 'CLIENT_ASSIGNED', companies }, async (updated) => ({
    put: [{ taxId: client, entry: entryOf(updated) }],
    remove: await strayEntries(deps, client, user),
  }));
}
