import type { Invoice, InvoiceAuditEvent, InvoiceAuditField } from '@portal/shared';
import type { Caller } from '../http/caller.js';

// What of an invoice the caller may read, applied wherever an invoice, a row of the list or the invoice's trail
// leaves the API. Reach (whose invoice it is) is decided before, in invoice-access.ts and the list's scope; this is
// the other half: inside an invoice the caller may see, what is for the group's staff only.
//
// Staff only: the portal's finding that the supplier's CDR contradicts SUNAT or the document
// (`supplierCdr.contradiction`, docs/ap-cdr.md). It may be a forgery under review: the supplier never learns of it,
// neither on the invoice nor in its trail. The CDR itself (code, verdict, observations) is the supplier's own.

/** The group's staff: a manager or an administrator. Anyone else (a supplier, its API client) reads the supplier's view. */
export function readsAsStaff(caller: Pick<Caller, 'level'>): boolean {
  return caller.level === 'MANAGER' || caller.level === 'ADMIN';
}

/** The invoice (detail, row of the list, intake's answer) as the caller may read it; staff read it whole. */
export function invoiceForCaller<T extends Pick<Invoice, 'supplierCdr'>>(caller: Pick<Caller, 'level'>, invoice: T): T {
  if (readsAsStaff(caller) || !invoice.supplierCdr?.contradiction) return invoice;
  return { ...invoice, supplierCdr: { ...invoice.supplierCdr, contradiction: null } };
}

/** The audited fields (schemas/invoice-audit.ts) that record a staff-only attribute. */
export const STAFF_ONLY_AUDIT_FIELDS: readonly InvoiceAuditField[] = ['cdrContradiction'];

/**
 * The invoice's trail as the caller may read it: for anyone but staff, without the changes of a staff-only field,
 * and without a record that held nothing else (an empty record would still tell that something was found).
 */
export function auditTrailForCaller(
  caller: Pick<Caller, 'level'>,
  events: readonly InvoiceAuditEvent[],
): InvoiceAuditEvent[] {
  if (readsAsStaff(caller)) return [...events];
  const hidden = new Set<string>(STAFF_ONLY_AUDIT_FIELDS);
  return events.flatMap((event) => {
    const changes = event.changes.filter((change) => !hidden.has(change.field));
    if (changes.length === event.changes.length) return [event];
    return changes.length > 0 ? [{ ...event, changes }] : [];
  });
}
