import { userAdminRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { userAdmin } from '../../use-cases/user-admin.factory.js';

export const handler = httpHandler(userAdminRoutes.listExternalUsers, ({ query }) =>
  userAdmin.listExternalUsers(query),
);
