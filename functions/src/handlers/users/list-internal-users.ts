import { userAdminRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { listInternalUsers } from '../../use-cases/user-admin/list-internal-users.js';
import { userAdminDeps } from '../../use-cases/user-admin.factory.js';

export const handler = httpHandler(userAdminRoutes.listInternalUsers, ({ query }) =>
  listInternalUsers(userAdminDeps, query),
);
