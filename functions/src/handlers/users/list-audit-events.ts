import { userAdminRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { listAuditEvents } from '../../use-cases/user-admin/list-audit-events.js';
import { userAdminDeps } from '../../use-cases/user-admin.factory.js';

export const handler = httpHandler(userAdminRoutes.listAuditEvents, ({ query }) =>
  listAuditEvents(userAdminDeps, query),
);
