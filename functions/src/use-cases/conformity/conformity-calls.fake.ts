import type { ConformityKind } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import type { InvoicePath } from '../invoice-access.js';
import { conformityDocumentAvailability } from './conformity-document-availability.js';
import type {
  AvailabilityPath,
  AvailabilityQuery,
  ConformityDeps,
  ConformityListQuery,
  SuggestionsQuery,
} from './conformity-deps.js';
import { listConformityDocuments } from './list-conformity-documents.js';
import { purchaseOrderAvailability } from './purchase-order-availability.js';
import { suggestConformityDocuments } from './suggest-conformity-documents.js';

/** The HES/MIGO/OC use cases bound to one set of ports, as the unit tests call them (handlers import each one). */
export function conformityCalls(deps: ConformityDeps) {
  return {
    list: (caller: Caller, kind: ConformityKind, query: ConformityListQuery) =>
      listConformityDocuments(deps, caller, kind, query),
    documentAvailability: (caller: Caller, kind: ConformityKind, path: AvailabilityPath, query: AvailabilityQuery) =>
      conformityDocumentAvailability(deps, caller, kind, path, query),
    purchaseOrderAvailability: (caller: Caller, path: AvailabilityPath, query: AvailabilityQuery) =>
      purchaseOrderAvailability(deps, caller, path, query),
    suggestions: (caller: Caller, path: InvoicePath, query: SuggestionsQuery) =>
      suggestConformityDocuments(deps, caller, path, query),
  };
}
