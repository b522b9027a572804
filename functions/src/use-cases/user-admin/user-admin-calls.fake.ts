import type { RouteBody, RouteQuery, Routes } from '@portal/shared';
import type { AdminContext, UserAdminDeps } from '../user-admin-accounts.js';
import { assignClient } from './assign-client.js';
import { createExternalUser } from './create-external-user.js';
import { listAuditEvents } from './list-audit-events.js';
import { listExternalUsers } from './list-external-users.js';
import { listInternalUsers } from './list-internal-users.js';
import { resetExternalUserPassword } from './reset-external-user-password.js';
import { setEmailReception, setExternalUserEnabled } from './supplier-accounts.js';
import { unassignClient } from './unassign-client.js';
import { whitelistNotificationsBulk } from './whitelist-notifications-bulk.js';

/** The user administration's use cases bound to one set of ports, as the tests call them (handlers import each). */
export function userAdminCalls(deps: UserAdminDeps) {
  return {
    listExternalUsers: (query: RouteQuery<Routes['listExternalUsers']>) => listExternalUsers(deps, query),
    createExternalUser: (context: AdminContext, body: RouteBody<Routes['createExternalUser']>) =>
      createExternalUser(deps, context, body),
    resetExternalUserPassword: (context: AdminContext, userId: string) =>
      resetExternalUserPassword(deps, context, userId),
    disableExternalUser: (context: AdminContext, userId: string) =>
      setExternalUserEnabled(deps, context, userId, false),
    enableExternalUser: (context: AdminContext, userId: string) => setExternalUserEnabled(deps, context, userId, true),
    whitelistNotifications: (context: AdminContext, userId: string, include: boolean) =>
      setEmailReception(deps, context, userId, include),
    whitelistNotificationsBulk: (context: AdminContext, userIds: readonly string[], include: boolean) =>
      whitelistNotificationsBulk(deps, context, userIds, include),
    listInternalUsers: (query: RouteQuery<Routes['listInternalUsers']>) => listInternalUsers(deps, query),
    assignClient: (context: AdminContext, userId: string, client: string) =>
      assignClient(deps, context, userId, client),
    unassignClient: (context: AdminContext, userId: string, client: string) =>
      unassignClient(deps, context, userId, client),
    listAuditEvents: (query: RouteQuery<Routes['listAuditEvents']>) => listAuditEvents(deps, query),
  };
}
