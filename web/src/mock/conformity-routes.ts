import {
  NotFoundError,
  fromCents,
  suggestByKind,
  toCents,
  type ConformityDocument,
  type RouteQuery,
  type RouteResponse,
  type Routes,
} from '@portal/shared';
import { paginate, type MockContext, type MockRoutes } from './context';
import { findInvoice } from './invoices';

function conformityIn(documents: readonly ConformityDocument[], query: RouteQuery<Routes['listServiceSheets']>) {
  return documents.filter(
    (document) =>
      document.acquirerTaxId === query.acquirer &&
      (!query.issuer || document.issuerTaxId === query.issuer) &&
      (!query.responsible || document.responsible === query.responsible),
  );
}

function availableDocument(
  documents: readonly ConformityDocument[],
  id: string,
  query: RouteQuery<Routes['serviceSheetAvailability']>,
  notFound: 'ERROR_HES_NOT_FOUND' | 'ERROR_MIGO_NOT_FOUND',
): ConformityDocument {
  const document = documents.find(
    (each) => each.documentId === id && each.acquirerTaxId === query.acquirer && each.issuerTaxId === query.issuer,
  );
  if (!document) throw new NotFoundError(notFound, { documentId: id });
  if (document.associatedInvoice) {
    throw new NotFoundError('ERROR_CONFORMITY_DOCUMENT_NOT_AVAILABLE', { documentId: id });
  }
  return document;
}

/**
 * The suggested HES and MIGO of an invoice with the shared rule: the order's documents of the invoice's
 * company, supplier and currency that no other invoice holds (the mock names the holder by invoice number).
 */
function suggestionsFor(
  context: MockContext<Routes['suggestConformityDocuments']>,
): RouteResponse<Routes['suggestConformityDocuments']> {
  const invoice = findInvoice(context, context.path);
  const { purchaseOrder } = context.query;
  const ofOrder = (documents: readonly ConformityDocument[]) =>
    documents.filter(
      (doc) =>
        doc.purchaseOrder === purchaseOrder &&
        doc.acquirerTaxId === invoice.client &&
        doc.issuerTaxId === invoice.supplierId,
    );
  const groups = [
    { kind: 'SERVICE_SHEET' as const, documents: ofOrder(context.world.serviceSheets) },
    { kind: 'MATERIAL_DOCUMENT' as const, documents: ofOrder(context.world.materialDocs) },
  ];
  if (groups.every((group) => group.documents.length === 0)) {
    throw new NotFoundError('ERROR_PURCHASE_ORDER_NOT_FOUND', { documentId: purchaseOrder });
  }
  const open = groups.map((group) => ({
    kind: group.kind,
    documents: group.documents.filter(
      (doc) => doc.currency === invoice.currency && (!doc.associatedInvoice || doc.associatedInvoice === invoice.id),
    ),
  }));
  const target = fromCents(toCents(invoice.amount) - toCents(invoice.taxAmount));
  const found = suggestByKind(open, target);
  return {
    purchaseOrder,
    currency: invoice.currency,
    target,
    suggestions: found.suggestions.map((suggestion) => ({ ...suggestion, documents: [...suggestion.documents] })),
    candidates: found.candidates,
    complete: found.complete,
  };
}

/** The HES and MIGO of the purchase orders, as the reviewers look them up. */
export const CONFORMITY_ROUTES = {
  listMaterialDocs: (context) => paginate(conformityIn(context.world.materialDocs, context.query), context.query),
  listServiceSheets: (context) => paginate(conformityIn(context.world.serviceSheets, context.query), context.query),
  materialDocAvailability: (context) =>
    availableDocument(context.world.materialDocs, context.path.id, context.query, 'ERROR_MIGO_NOT_FOUND'),
  serviceSheetAvailability: (context) =>
    availableDocument(context.world.serviceSheets, context.path.id, context.query, 'ERROR_HES_NOT_FOUND'),
  suggestConformityDocuments: suggestionsFor,
  purchaseOrderAvailability: (context) => {
    const { id } = context.path;
    const known = [...context.world.serviceSheets, ...context.world.materialDocs].some(
      (document) =>
        document.purchaseOrder === id &&
        document.acquirerTaxId === context.query.acquirer &&
        document.issuerTaxId === context.query.issuer,
    );
    if (!known) throw new NotFoundError('ERROR_PURCHASE_ORDER_NOT_FOUND', { documentId: id });
    return { id, available: true };
  },
} satisfies Partial<MockRoutes>;
