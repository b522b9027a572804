import type { InvoiceDetail } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { loadInvoiceInReach, type InvoicePath } from '../invoice-access.js';
import { invoiceDetail } from './invoice-detail.js';
import type { DetailDeps } from './review-deps.js';

/** GET: the detail of an invoice within the caller's reach (404 otherwise). */
export async function getInvoice(deps: DetailDeps, caller: Caller, path: InvoicePath): Promise<InvoiceDetail> {
  return invoiceDetail(deps, await loadInvoiceInReach(deps.store, caller, path));
}
