import { userAdminRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { listExternalUsers } from '../../use-cases/user-admin/list-external-users.js';
import { userAdminDeps } from '../../use-cases/user-admin.factory.js';

export const handler = httpHandler(userAdminRoutes.listExternalUsers, ({ query }) =>
  listExternalUsers(userAdminDeps, query),
);
