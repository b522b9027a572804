import { ConflictError, NotFoundError, type Invoice, type RoutePath, type Routes } from '@portal/shared';
import type { Caller } from '../http/caller.js';
import { InvoiceChangedError, type InvoiceStore, type StoredInvoice } from '../repositories/invoice-store.js';

/** The path that names one invoice: /suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}. */
export type InvoicePath = RoutePath<Routes['getInvoice']>;

/** Whether the caller may see the invoice at all: another tenant's invoice does not exist for it. */
export function withinReach(
  caller: Pick<Caller, 'level' | 'taxIds'>,
  invoice: Pick<Invoice, 'supplierId' | 'client'>,
): boolean {
  if (caller.level === 'ADMIN') return true;
  if (caller.level === 'SUPPLIER') return caller.taxIds.includes(invoice.supplierId);
  if (caller.level === 'MANAGER') return caller.taxIds.includes(invoice.client);
  return false;
}

/** The invoice the path names, if the caller may see it; else 404, the same answer as a missing one. */
export async function loadInvoiceInReach(
  store: Pick<InvoiceStore, 'get'>,
  caller: Pick<Caller, 'level' | 'taxIds'>,
  path: InvoicePath,
): Promise<StoredInvoice> {
  const invoice = await store.get(path.supplierId, path.invoiceType, path.invoiceId);
  if (!invoice || !withinReach(caller, invoice)) throw new NotFoundError('ERROR_INVOICE_NOT_FOUND');
  return invoice;
}

/** How many times a write is retried after another writer moved the invoice first. */
export const INVOICE_WRITE_ATTEMPTS = 5;

/**
 * Reload, check, write; again (after a short, jittered pause) when another writer committed the invoice first. After
 * INVOICE_WRITE_ATTEMPTS the caller is told to try again (409 ERROR_INVOICE_CHANGED_CONCURRENTLY).
 */
export async function retryingInvoiceChange<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof InvoiceChangedError)) throw error;
      if (i >= INVOICE_WRITE_ATTEMPTS) throw new ConflictError('ERROR_INVOICE_CHANGED_CONCURRENTLY');
      await new Promise((resolve) => setTimeout(resolve, 10 * i + Math.random() * 20));
    }
  }
}
