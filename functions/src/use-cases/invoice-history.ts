import type { InvoiceAuditEvent } from '@portal/shared';
import type { Caller } from '../http/caller.js';
import type { InvoiceAuditRepository } from '../repositories/invoice-audit.js';
import type { InvoiceStore } from '../repositories/invoice-store.js';
import type { Page, PageRequest } from '../repositories/page.js';
import { loadInvoiceInReach, type InvoicePath } from './invoice-access.js';

export interface InvoiceHistoryDeps {
  readonly store: Pick<InvoiceStore, 'get'>;
  readonly trail: InvoiceAuditRepository;
}

/**
 * 'Historial': an invoice's audit trail, for whoever may see the invoice (else 404, as for the invoice),
 * without what only staff may read: the route's answer is projected for the caller's role (schemas/visibility.ts).
 */
export async function listInvoiceHistory(
  deps: InvoiceHistoryDeps,
  caller: Caller,
  path: InvoicePath,
  page: PageRequest,
): Promise<Page<InvoiceAuditEvent>> {
  const invoice = await loadInvoiceInReach(deps.store, caller, path);
  return deps.trail.list(invoice, page);
}
