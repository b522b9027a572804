import * as z from 'zod/mini';
import { pageOf } from '../schemas/common.js';
import {
  AvailabilityPath,
  AvailabilityQuery,
  ConformityDocument,
  ConformityQuery,
  ConformitySuggestions,
  SuggestionsQuery,
} from '../schemas/conformity.js';
import { READS_TABLE } from '../access.js';
import { route, STAFF, type RouteDef } from './route.js';
import { invoiceRequest } from './invoice-request.js';
import { INVOICE_API_PATH } from '../invoice-ref.js';

/** Conformity documents (MIGO, HES) and availability checks. */
export const conformityRoutes = {
  listMaterialDocs: route({
    id: 'listMaterialDocs',
    method: 'GET',
    path: '/material-docs',
    summary: 'Conformidades MIGO',
    roles: STAFF,
    request: { query: ConformityQuery },
    response: pageOf(ConformityDocument),
    uses: READS_TABLE,
    handler: 'conformity/list-material-docs',
  }),
  listServiceSheets: route({
    id: 'listServiceSheets',
    method: 'GET',
    path: '/service-sheets',
    summary: 'Conformidades HES',
    roles: STAFF,
    request: { query: ConformityQuery },
    response: pageOf(ConformityDocument),
    uses: READS_TABLE,
    handler: 'conformity/list-service-sheets',
  }),
  materialDocAvailability: route({
    id: 'materialDocAvailability',
    method: 'GET',
    path: '/material-docs/{id}/availability',
    summary: 'Disponibilidad de una MIGO (404: no disponible)',
    roles: STAFF,
    request: { path: AvailabilityPath, query: AvailabilityQuery },
    response: ConformityDocument,
    uses: READS_TABLE,
    handler: 'conformity/get-material-doc-availability',
  }),
  purchaseOrderAvailability: route({
    id: 'purchaseOrderAvailability',
    method: 'GET',
    path: '/purchase-orders/{id}/availability',
    summary: 'Disponibilidad de una orden de compra (404: no disponible)',
    roles: STAFF,
    request: { path: AvailabilityPath, query: AvailabilityQuery },
    response: z.object({ id: z.string(), available: z.literal(true) }),
    uses: READS_TABLE,
    handler: 'conformity/get-purchase-order-availability',
  }),
  serviceSheetAvailability: route({
    id: 'serviceSheetAvailability',
    method: 'GET',
    path: '/service-sheets/{id}/availability',
    summary: 'Disponibilidad de una HES (404: no disponible)',
    roles: STAFF,
    request: { path: AvailabilityPath, query: AvailabilityQuery },
    response: ConformityDocument,
    uses: READS_TABLE,
    handler: 'conformity/get-service-sheet-availability',
  }),
  suggestConformityDocuments: route({
    id: 'suggestConformityDocuments',
    method: 'GET',
    path: `${INVOICE_API_PATH}/conformity-suggestions`,
    summary:
      'HES o MIGO abiertas de una orden de compra (mismo proveedor y moneda, sin otro comprobante) que suman el importe sin IGV',
    roles: STAFF,
    request: invoiceRequest({ query: SuggestionsQuery }),
    response: ConformitySuggestions,
    uses: READS_TABLE,
    handler: 'conformity/suggest-conformity-documents',
  }),
} as const satisfies Record<string, RouteDef>;
