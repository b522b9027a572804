import { userAdminRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { adminContextOf } from '../../use-cases/user-admin-accounts.js';
import { setExternalUserEnabled } from '../../use-cases/user-admin/supplier-accounts.js';
import { userAdminDeps } from '../../use-cases/user-admin.factory.js';

export const handler = httpHandler(userAdminRoutes.disableExternalUser, ({ caller, txId, path }) =>
  setExternalUserEnabled(userAdminDeps, adminContextOf(caller, txId), path.userId, false),
);
