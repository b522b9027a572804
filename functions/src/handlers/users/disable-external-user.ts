import { userAdminRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { adminContextOf } from '../../use-cases/user-admin.js';
import { userAdmin } from '../../use-cases/user-admin.factory.js';

export const handler = httpHandler(userAdminRoutes.disableExternalUser, ({ caller, txId, path }) =>
  userAdmin.disableExternalUser(adminContextOf(caller, txId), path.userId),
);
