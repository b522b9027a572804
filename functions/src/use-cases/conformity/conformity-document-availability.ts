import { NotFoundError, type ConformityDocument, type ConformityKind, type ErrorCode } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { assertCompanyAccess } from '../company-access.js';
import type { AvailabilityPath, AvailabilityQuery, ConformityDeps } from './conformity-deps.js';

/** The code of spec §8 that says "no such document for this supplier". */
const NOT_FOUND: Record<ConformityKind, ErrorCode> = {
  SERVICE_SHEET: 'ERROR_HES_NOT_FOUND',
  MATERIAL_DOCUMENT: 'ERROR_MIGO_NOT_FOUND',
};

/**
 * A HES or MIGO the supplier may put on an invoice: it exists at the acquirer, the supplier issued
 * it, and no invoice holds it. Another supplier's document is answered as unknown.
 */
export async function conformityDocumentAvailability(
  deps: Pick<ConformityDeps, 'documents' | 'clients'>,
  caller: Caller,
  kind: ConformityKind,
  path: AvailabilityPath,
  query: AvailabilityQuery,
): Promise<ConformityDocument> {
  const { documents, clients } = deps;
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
}
