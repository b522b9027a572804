import { NotFoundError, type InternalUser } from '@portal/shared';
import { strayEntries, type AdminContext, type UserAdminDeps } from '../user-admin-accounts.js';
import { companiesByTaxId, internalAccount, setCompanies, toInternalUser } from './staff-accounts.js';

/** Removes a company from a staff account's taxId list, and its e-mail about that company; idempotent. */
export async function unassignClient(
  deps: UserAdminDeps,
  context: AdminContext,
  userId: string,
  client: string,
): Promise<InternalUser> {
  const [user, companies] = await Promise.all([internalAccount(deps, userId), companiesByTaxId(deps)]);
  if (!user.taxIds.includes(client)) {
    if (!companies.has(client)) throw new NotFoundError('ERROR_CLIENT_NOT_FOUND', { client });
    return toInternalUser(deps, user, companies);
  }
  const taxIds = user.taxIds.filter((taxId) => taxId !== client);
  return setCompanies(deps, context, { user, taxIds, action: 'CLIENT_UNASSIGNED', companies }, async () => ({
    put: [],
    remove: [{ taxId: client, userId: user.id }, ...(await strayEntries(deps, client, user))],
  }));
}
