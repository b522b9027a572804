import {
  CONFORMITY_KINDS,
  NotFoundError,
  fromCents,
  suggestByKind,
  toCents,
  type ConformityDocument,
  type ConformitySuggestions,
} from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { invoiceKeyOf } from '../../repositories/invoice-store.js';
import { loadInvoiceInReach, type InvoicePath } from '../invoice-access.js';
import type { ConformityDeps, SuggestionsQuery } from './conformity-deps.js';

/** Documents of one kind read for one order's suggestions: one Query page; beyond it the answer says incomplete. */
export const SUGGESTION_READS = 200;

/**
 * The HES or MIGO of one purchase order that add up to the invoice amount without IGV (ADR 0029):
 * 1. the invoice as the caller may see it (another company's is unknown), and the order issued to its supplier;
 * 2. the order's documents of each kind, kept when the supplier issued them in the invoice currency and no other
 *    invoice holds them (this invoice's own count as free);
 * 3. the bounded subset sum of each kind (HES and MIGO never mixed), merged in the rule's order.
 */
export async function suggestConformityDocuments(
  deps: Pick<ConformityDeps, 'documents' | 'invoices'>,
  caller: Caller,
  path: InvoicePath,
  query: SuggestionsQuery,
): Promise<ConformitySuggestions> {
  const { documents, invoices } = deps;
  const invoice = await loadInvoiceInReach(invoices, caller, path);
  const order = await documents.getPurchaseOrder(invoice.client, query.purchaseOrder);
  if (!order || order.issuerTaxId !== invoice.supplierId) {
    throw new NotFoundError('ERROR_PURCHASE_ORDER_NOT_FOUND', { documentId: query.purchaseOrder });
  }
  const target = fromCents(toCents(invoice.amount) - toCents(invoice.taxAmount));
  const own = invoiceKeyOf(invoice);
  const pages = await Promise.all(
    CONFORMITY_KINDS.map(async (kind) => {
      const page = await documents.listByPurchaseOrder(kind, invoice.client, order.id, {
        limit: SUGGESTION_READS,
      });
      const open: ConformityDocument[] = page.items
        .filter((doc) => doc.issuerTaxId === invoice.supplierId && doc.currency === invoice.currency)
        .filter((doc) => doc.claimedBy === null || doc.claimedBy === own)
        .map(({ claimedBy: _claimedBy, ...row }) => row);
      return { kind, documents: open, more: page.nextCursor !== null };
    }),
  );
  const found = suggestByKind(pages, target);
  return {
    purchaseOrder: order.id,
    currency: invoice.currency,
    target,
    suggestions: found.suggestions.map((suggestion) => ({ ...suggestion, documents: [...suggestion.documents] })),
    candidates: found.candidates,
    complete: found.complete && pages.every((page) => !page.more),
  };
}
