import type { ConformityDocument, ConformityKind } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import type { Page } from '../../repositories/page.js';
import { assertCompanyAccess } from '../company-access.js';
import type { ConformityDeps, ConformityListQuery } from './conformity-deps.js';

/**
 * The acquirer's documents of one kind, newest fiscal year first, through the index that fits the
 * filters: by issuer, by responsible, or by issuer narrowed to a responsible.
 */
export async function listConformityDocuments(
  deps: Pick<ConformityDeps, 'documents' | 'clients'>,
  caller: Caller,
  kind: ConformityKind,
  query: ConformityListQuery,
): Promise<Page<ConformityDocument>> {
  const { documents, clients } = deps;
  await assertCompanyAccess(caller, query.acquirer, clients);
  const page = { limit: query.limit, cursor: query.cursor };
  const { acquirer, issuer, responsible } = query;
  if (issuer && responsible) {
    return documents.listByAcquirerIssuerAndResponsible(kind, acquirer, issuer, responsible, page);
  }
  if (issuer) return documents.listByAcquirerAndIssuer(kind, acquirer, issuer, page);
  if (responsible) return documents.listByAcquirerAndResponsible(kind, acquirer, responsible, page);
  return documents.listByAcquirer(kind, acquirer, page);
}
