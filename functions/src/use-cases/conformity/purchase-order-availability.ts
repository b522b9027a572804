import { NotFoundError } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { assertCompanyAccess } from '../company-access.js';
import type { AvailabilityPath, AvailabilityQuery, ConformityDeps } from './conformity-deps.js';

/** A purchase order the supplier may invoice: it exists at the acquirer and was issued to that supplier. */
export async function purchaseOrderAvailability(
  deps: Pick<ConformityDeps, 'documents' | 'clients'>,
  caller: Caller,
  path: AvailabilityPath,
  query: AvailabilityQuery,
): Promise<{ id: string; available: true }> {
  const { documents, clients } = deps;
  await assertCompanyAccess(caller, query.acquirer, clients);
  const order = await documents.getPurchaseOrder(query.acquirer, path.id);
  if (!order || order.issuerTaxId !== query.issuer) {
    throw new NotFoundError('ERROR_PURCHASE_ORDER_NOT_FOUND', { documentId: path.id });
  }
  return { id: order.id, available: true };
}
