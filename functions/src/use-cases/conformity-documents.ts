import {
  NotFoundError,
  type ConformityDocument,
  type ConformityKind,
  type ErrorCode,
  type RoutePath,
  type RouteQuery,
  type Routes,
} from '@portal/shared';
import type { Caller } from '../http/caller.js';
import type { ClientRepository } from '../repositories/clients.js';
import type { ConformityDocumentRepository } from '../repositories/conformity-documents.js';
import type { Page } from '../repositories/page.js';
import { assertCompanyAccess } from './company-access.js';

export type ConformityListQuery = RouteQuery<Routes['listServiceSheets']>;
export type AvailabilityPath = RoutePath<Routes['serviceSheetAvailability']>;
export type AvailabilityQuery = RouteQuery<Routes['serviceSheetAvailability']>;

export interface ConformityDeps {
  readonly documents: ConformityDocumentRepository;
  readonly clients: Pick<ClientRepository, 'get'>;
}

/** The code of spec §8 that says "no such document for this supplier". */
const NOT_FOUND: Record<ConformityKind, ErrorCode> = {
  SERVICE_SHEET: 'ERROR_HES_NOT_FOUND',
  MATERIAL_DOCUMENT: 'ERROR_MIGO_NOT_FOUND',
};

/** HES and MIGO lists, and the availability checks the invoice form makes (spec §5, §7: 404 = not available). */
export function makeConformityDocuments({ documents, clients }: ConformityDeps) {
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
  };
}
