import type { AuditEvent, RouteQuery, Routes } from '@portal/shared';
import type { Page } from '../repositories/page.js';
import { makeAccountTools, type UserAdminDeps } from './user-admin-accounts.js';
import { makeStaffAdmin } from './user-admin-staff.js';
import { makeSupplierAdmin } from './user-admin-suppliers.js';

export { adminContextOf, type AdminContext, type UserAdminDeps } from './user-admin-accounts.js';

type AuditEventsQuery = RouteQuery<Routes['listAuditEvents']>;

/**
 * The user administration (spec §2 Employees and Suppliers, §7 user calls), for administrators only.
 * Cognito holds the accounts; DynamoDB holds what Cognito cannot: each RUC's account index (who gets
 * e-mail, and how a supplier's accounts are found) and the audit log. Every change is made in Cognito
 * first — the commit point — and only then written to DynamoDB, the index and its audit event together.
 */
export function makeUserAdmin(deps: UserAdminDeps) {
  const tools = makeAccountTools(deps);
  return {
    ...makeSupplierAdmin(deps, tools),
    ...makeStaffAdmin(deps, tools),

    listAuditEvents(query: AuditEventsQuery): Promise<Page<AuditEvent>> {
      return deps.auditLog.list({ userId: query.userId }, { limit: query.limit, cursor: query.cursor });
    },
  };
}

export type UserAdmin = ReturnType<typeof makeUserAdmin>;
