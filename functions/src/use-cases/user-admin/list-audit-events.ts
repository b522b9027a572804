import type { AuditEvent, RouteQuery, Routes } from '@portal/shared';
import type { Page } from '../../repositories/page.js';
import type { UserAdminDeps } from '../user-admin-accounts.js';

type AuditEventsQuery = RouteQuery<Routes['listAuditEvents']>;

/** The audit log of the user administration, newest first, optionally of one account. */
export function listAuditEvents(
  deps: Pick<UserAdminDeps, 'auditLog'>,
  query: AuditEventsQuery,
): Promise<Page<AuditEvent>> {
  return deps.auditLog.list({ userId: query.userId }, { limit: query.limit, cursor: query.cursor });
}
