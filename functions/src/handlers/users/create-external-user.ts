import { userAdminRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { adminContextOf } from '../../use-cases/user-admin-accounts.js';
import { createExternalUser } from '../../use-cases/user-admin/create-external-user.js';
import { userAdminDeps } from '../../use-cases/user-admin.factory.js';

export const handler = httpHandler(userAdminRoutes.createExternalUser, ({ caller, txId, body }) =>
  createExternalUser(userAdminDeps, adminContextOf(caller, txId), body),
);
