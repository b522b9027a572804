import type { RoutePath, RouteQuery, Routes } from '@portal/shared';
import type { ClientRepository } from '../../repositories/clients.js';
import type { ConformityDocumentRepository } from '../../repositories/conformity-documents.js';
import type { InvoiceStore } from '../../repositories/invoice-store.js';

export type ConformityListQuery = RouteQuery<Routes['listServiceSheets']>;
export type AvailabilityPath = RoutePath<Routes['serviceSheetAvailability']>;
export type AvailabilityQuery = RouteQuery<Routes['serviceSheetAvailability']>;
export type SuggestionsQuery = RouteQuery<Routes['suggestConformityDocuments']>;

/** The ports of the HES and MIGO lists and of the availability checks the invoice form makes (spec §5, §7). */
export interface ConformityDeps {
  readonly documents: ConformityDocumentRepository;
  readonly clients: Pick<ClientRepository, 'get'>;
  readonly invoices: Pick<InvoiceStore, 'get'>;
}
