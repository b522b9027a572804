import {
  CONFORMITY_KINDS,
  NotFoundError,
  fromCents,
  suggestByKind,
  toCents,
  type ConformityDocument,
  type ConformitySuggestions,
  type ConformityKind,
  type ErrorCode,
  type RoutePath,
  type RouteQuery,
  type Routes,
} from '@portal/shared';
import type { Caller } from '../http/caller.js';
import type { ClientRepository } from '../repositories/clients.js';
import type { ConformityDocumentRepository } from '../repositories/conformity-documents.js';
import type { InvoiceStore } from '../repositories/invoice-store.js';
import { invoiceKeyOf } from '../repositories/invoice-store.js';
import type { Page } from '../repositories/page.js';
import { assertCompanyAccess } from './company-access.js';
import { loadInvoiceInReach, type InvoicePath } from './invoice-access.js';

export type ConformityListQuery = RouteQuery<Routes['listServiceSheets']>;
export type AvailabilityPath = RoutePath<Routes['serviceSheetAvailability']>;
export type AvailabilityQuery = RouteQuery<Routes['serviceSheetAvailability']>;
export type SuggestionsQuery = RouteQuery<Routes['suggestConformityDocuments']>;

/** Documents of one kind read for one order's suggestions: one Query page; beyond it the answer says incomplete. */
export const SUGGESTION_READS = 200;

export interface ConformityDeps {
  readonly documents: ConformityDocumentRepository;
  readonly clients: Pick<ClientRepository, 'get'>;
  readonly invoices: Pick<InvoiceStore, 'get'>;
}

/** The code of spec §8 that says "no such document for this supplier". */
const NOT_FOUND: Record<ConformityKind, ErrorCode> = {
  SERVICE_SHEET: 'ERROR_HES_NOT_FOUND',
  MATERIAL_DOCUMENT: 'ERROR_MIGO_NOT_FOUND',
};

/** HES and MIGO lists, and the availability checks the invoice form makes (spec §5, §7: 404 = not available). */
export function makeConformityDocuments({ documents, clients, invoices }: ConformityDeps) {
  return {
    /**
     * The acquirer's documents of one kind, newest fiscal year first, through the index that fits the
     * filters: by issuer, by responsible, or by issuer narrowed to a responsible.
     */
    async list(caller: Caller, kind: ConformityKind, query: ConformityListQuery): Promise<Page<ConformityDocument>> {
      await assertCompanyAccess(caller, query.acquirer, clients);
      const page = { limit: query.limit, cursor: query.cursor };
      const { acquirer, issuer, responsible } = query;
      if (issuer && responsible) {
        return documents.listByAcquirerIssuerAndResponsible(kind, acquirer, issuer, responsible, page);
      }
      if (issuer) return documents.listByAcquirerAndIssuer(kind, acquirer, issuer, page);
      if (responsible) return documents.listByAcquirerAndResponsible(kind, acquirer, responsible, page);
      return documents.listByAcquirer(kind, acquirer, page);
    },

    /**
     * A HES or MIGO the supplier may put on an invoice: it exists at the acquirer, the supplier issued
     * it, and no invoice holds it. Another supplier's document is answered as unknown.
     */
    async documentAvailability(
      caller: Caller,
      kind: ConformityKind,
      path: AvailabilityPath,
      query: AvailabilityQuery,
    ): Promise<ConformityDocument> {
      await assertCompanyAccess(caller, query.acquirer, clients);
      const document = await documents.get(kind, query.acquirer, path.id);
      if (!document || document.issuerTaxId !== query.issuer) {
        throw new NotFoundError(NOT_FOUND[kind], { documentId: path.id });
      }
      if (document.claimedBy !== null) {
        throw new NotFoundError('ERROR_CONFORMITY_DOCUMENT_NOT_AVAILABLE', { documentId: path.id });
      }
      const { claimedBy: _claimedBy, ...row } = document;
      return row;
    },

    /** A purchase order the supplier may invoice: it exists at the acquirer and was issued to that supplier. */
    async purchaseOrderAvailability(
      caller: Caller,
      path: AvailabilityPath,
      query: AvailabilityQuery,
    ): Promise<{ id: string; available: true }> {
      await assertCompanyAccess(caller, query.acquirer, clients);
      const order = await documents.getPurchaseOrder(query.acquirer, path.id);
      if (!order || order.issuerTaxId !== query.issuer) {
        throw new NotFoundError('ERROR_PURCHASE_ORDER_NOT_FOUND', { documentId: path.id });
      }
      return { id: order.id, available: true };
    },

    /**
     * The HES or MIGO of one purchase order that add up to the invoice amount without IGV (ADR 0029):
     * 1. the invoice as the caller may see it (another company's is unknown), and the order issued to its supplier;
     * 2. the order's documents of each kind, kept when the supplier issued them in the invoice currency and no other
     *    invoice holds them (this invoice's own count as free);
     * 3. the bounded subset sum of each kind (HES and MIGO never mixed), merged in the rule's order.
     */
    async suggestions(caller: Caller, path: InvoicePath, query: SuggestionsQuery): Promise<ConformitySuggestions> {
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
    },
  };
}
