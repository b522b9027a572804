import { userAdminRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { adminContextOf } from '../../use-cases/user-admin-accounts.js';
import { assignClient } from '../../use-cases/user-admin/assign-client.js';
import { userAdminDeps } from '../../use-cases/user-admin.factory.js';

export const handler = httpHandler(userAdminRoutes.assignClientToInternalUser, ({ caller, txId, path, query }) =>
  assignClient(userAdminDeps, adminContextOf(caller, txId), path.userId, query.client),
);
