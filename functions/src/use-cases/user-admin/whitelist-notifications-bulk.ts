import { PortalError, UNEXPECTED_ERROR_MESSAGE, type BulkUserResult } from '@portal/shared';
import { CONCURRENCY, mapBounded, type AdminContext, type UserAdminDeps } from '../user-admin-accounts.js';
import { setEmailReception } from './supplier-accounts.js';

/** The e-mail reception of many accounts (setEmailReception): each succeeds or fails alone, and the answer says which. */
export async function whitelistNotificationsBulk(
  deps: UserAdminDeps,
  context: AdminContext,
  userIds: readonly string[],
  include: boolean,
): Promise<{ results: BulkUserResult[] }> {
  const results = await mapBounded(userIds, CONCURRENCY, async (userId): Promise<BulkUserResult> => {
    try {
      await setEmailReception(deps, context, userId, include);
      return { userId, ok: true };
    } catch (error) {
      if (error instanceof PortalError) {
        return { userId, ok: false, error: { code: error.code, message: error.message } };
      }
      deps.log.error('bulk e-mail reception change failed', { userId, error: error as Error });
      return { userId, ok: false, error: { code: null, message: UNEXPECTED_ERROR_MESSAGE } };
    }
  });
  return { results };
}
