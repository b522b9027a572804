import { userAdminRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { adminContextOf } from '../../use-cases/user-admin-accounts.js';
import { whitelistNotificationsBulk } from '../../use-cases/user-admin/whitelist-notifications-bulk.js';
import { userAdminDeps } from '../../use-cases/user-admin.factory.js';

export const handler = httpHandler(userAdminRoutes.whitelistNotificationsBulk, ({ caller, txId, query, body }) =>
  whitelistNotificationsBulk(userAdminDeps, adminContextOf(caller, txId), body.userIds, query.include),
);
