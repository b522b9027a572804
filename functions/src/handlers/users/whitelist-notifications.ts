import { userAdminRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { adminContextOf } from '../../use-cases/user-admin-accounts.js';
import { setEmailReception } from '../../use-cases/user-admin/supplier-accounts.js';
import { userAdminDeps } from '../../use-cases/user-admin.factory.js';

export const handler = httpHandler(userAdminRoutes.whitelistNotifications, ({ caller, txId, path, query }) =>
  setEmailReception(userAdminDeps, adminContextOf(caller, txId), path.userId, query.include),
);
