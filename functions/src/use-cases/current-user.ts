import { ForbiddenError, NotFoundError, type SessionUser } from '@portal/shared';
import type { Caller } from '../http/caller.js';
import type { UserDirectory } from './user-admin-ports.js';

/**
 * The user-info call of the navigation guard (spec §4, §8): the token says who and with which level
 * and companies; the user pool says whether the account still exists and may use the portal, so a
 * deleted account reads 'Usuario no encontrado' and a disabled one is sent to the forbidden page at
 * its next navigation instead of when its token expires.
 */
export function makeGetCurrentUser({
  directory,
  companyNames,
}: {
  directory: Pick<UserDirectory, 'getUser'>;
  /** The names of the caller's companies: a supplier's from the supplier directory, staff's from the group's. */
  companyNames: (level: Caller['level'], taxIds: readonly string[]) => Promise<ReadonlyMap<string, string>>;
}) {
  return async (caller: Caller): Promise<SessionUser> => {
    const [account, names] = await Promise.all([
      directory.getUser(caller.username),
      caller.taxIds.length > 0 ? companyNames(caller.level, caller.taxIds) : new Map<string, string>(),
    ]);
    if (!account) throw new NotFoundError('ERROR_USER_NOT_FOUND');
    if (!account.enabled) throw new ForbiddenError('ERROR_USER_DISABLED');
    return {
      id: caller.sub,
      firstName: caller.firstName,
      lastName: caller.lastName,
      group: caller.groups[0] ?? null,
      email: caller.email,
      level: caller.level,
      taxId: caller.taxIds.length > 0 ? caller.taxIds.join(',') : null,
      companies: caller.taxIds.map((taxId) => ({ taxId, name: names.get(taxId) ?? null })),
    };
  };
}
