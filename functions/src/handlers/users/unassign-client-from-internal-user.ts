import { userAdminRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { adminContextOf } from '../../use-cases/user-admin-accounts.js';
import { unassignClient } from '../../use-cases/user-admin/unassign-client.js';
import { userAdminDeps } from '../../use-cases/user-admin.factory.js';

export const handler = httpHandler(userAdminRoutes.unassignClientFromInternalUser, ({ caller, txId, path, query }) =>
  unassignClient(userAdminDeps, adminContextOf(caller, txId), path.userId, query.client),
);
