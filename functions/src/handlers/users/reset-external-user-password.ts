import { userAdminRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { adminContextOf } from '../../use-cases/user-admin-accounts.js';
import { resetExternalUserPassword } from '../../use-cases/user-admin/reset-external-user-password.js';
import { userAdminDeps } from '../../use-cases/user-admin.factory.js';

export const handler = httpHandler(userAdminRoutes.resetExternalUserPassword, ({ caller, txId, path }) =>
  resetExternalUserPassword(userAdminDeps, adminContextOf(caller, txId), path.userId),
);
