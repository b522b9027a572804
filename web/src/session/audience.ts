import type { Level } from '@portal/shared';

/**
 * Whom the invoices screen speaks to: a supplier, about the invoices it issued («Mis comprobantes»), or staff
 * (managers and administrators), who receive the invoices they review («Comprobantes recibidos»).
 */
export type Audience = 'supplier' | 'staff';

export function audienceOf(level: Level | undefined): Audience {
  return level === 'MANAGER' || level === 'ADMIN' ? 'staff' : 'supplier';
}
