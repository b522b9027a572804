import {
  BadRequestError,
  NotFoundError,
  isValidRuc,
  type CreateApiClientBody,
  type CreatedApiClient,
} from '@portal/shared';
import type { StoredApiClient } from '../../repositories/api-clients.js';
import type { AdminContext } from '../user-admin-accounts.js';
import { clientAudit, setAudience, type ApiClientsDeps } from './api-client-steps.js';

/**
 * A supplier's API client for a RUC the directory knows: the app client in Cognito first (the commit point), then
 * its record with the audit event (taken back from Cognito if that write fails), then the authorizer's audience.
 * The secret is answered this once.
 */
export async function createApiClient(
  deps: ApiClientsDeps,
  context: AdminContext,
  body: CreateApiClientBody,
): Promise<CreatedApiClient> {
  if (!isValidRuc(body.taxId)) throw new BadRequestError('ERROR_INVALID_RUC', { ruc: body.taxId });
  const names = await deps.supplierNames([body.taxId]);
  const supplierName = names.get(body.taxId);
  if (supplierName === undefined) throw new NotFoundError('ERROR_API_CLIENT_UNKNOWN_SUPPLIER', { ruc: body.taxId });
  const scopes = [...new Set(body.scopes)];
  const { clientId, clientSecret } = await deps.appClients.create({ name: `${body.taxId} ${body.name}`, scopes });
  const client: StoredApiClient = {
    clientId,
    name: body.name,
    taxId: body.taxId,
    scopes,
    createdAt: deps.clock().toISOString(),
    createdBy: context.actor.email || context.actor.id,
    revokedAt: null,
    revokedBy: null,
  };
  try {
    await deps.repository.create(
      client,
      clientAudit(deps, context, 'API_CLIENT_CREATED', client, null, { taxId: body.taxId, scopes: scopes.join(' ') }),
    );
  } catch (error) {
    // Not listed, it could never be revoked from the portal: take the app client back.
    await deps.appClients.delete(clientId);
    throw error;
  }
  await setAudience(deps);
  return { ...client, supplierName, clientSecret, tokenUrl: deps.tokenUrl };
}
