import { ConflictError, NotFoundError, type ApiClient } from '@portal/shared';
import type { StoredApiClient } from '../../repositories/api-clients.js';
import type { AdminContext } from '../user-admin-accounts.js';
import { clientAudit, setAudience, withNames, type ApiClientsDeps } from './api-client-steps.js';

/**
 * Revokes an API client: its record first (its tokens still valid are refused from then on), with the audit event,
 * then its app client in Cognito (no new tokens) and the authorizer's audience. A second revocation is a 409.
 */
export async function revokeApiClient(
  deps: ApiClientsDeps,
  context: AdminContext,
  clientId: string,
): Promise<ApiClient> {
  const found = await deps.repository.get(clientId);
  if (!found) throw new NotFoundError('ERROR_API_CLIENT_NOT_FOUND');
  if (found.revokedAt !== null) throw new ConflictError('ERROR_API_CLIENT_ALREADY_REVOKED');
  const revoked: StoredApiClient = {
    ...found,
    revokedAt: deps.clock().toISOString(),
    revokedBy: context.actor.email || context.actor.id,
  };
  const written = await deps.repository.revoke(
    revoked,
    clientAudit(deps, context, 'API_CLIENT_REVOKED', found, { revoked: false }, { revoked: true }),
  );
  if (!written) throw new ConflictError('ERROR_API_CLIENT_ALREADY_REVOKED');
  await deps.appClients.delete(clientId);
  await setAudience(deps);
  const [listed] = await withNames(deps, [revoked]);
  return listed!;
}
