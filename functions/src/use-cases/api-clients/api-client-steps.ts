import type { ApiClient, AuditEvent, AuditValues } from '@portal/shared';
import type { AuthorizerAudience } from '../../adapters/api-authorizer.js';
import type { AppClients } from '../../adapters/cognito.js';
import type { ApiClientRepository, StoredApiClient } from '../../repositories/api-clients.js';
import { auditEvent, type AdminContext } from '../user-admin-accounts.js';

/**
 * The ports of a supplier's API clients: an administrator creates one for a supplier's RUC (a Cognito app client
 * with a secret, for the client-credentials grant, with the chosen scopes), lists them and revokes one. Cognito
 * is the commit point of a creation (an app client the table does not list yet has no claims: the trigger refuses
 * its tokens); a revocation is written to the table first (its tokens still valid are refused from then on), then
 * the app client is deleted (no new tokens).
 */
export interface ApiClientsDeps {
  readonly repository: ApiClientRepository;
  /** The user pool's app clients (Cognito keeps the secret). */
  readonly appClients: AppClients;
  /** The JWT authorizer's audience: the web client and the active API clients. */
  readonly audience: AuthorizerAudience;
  /** Business names of the RUCs the supplier directory knows. */
  readonly supplierNames: (rucs: readonly string[]) => Promise<ReadonlyMap<string, string>>;
  /** Where a client asks for its tokens. */
  readonly tokenUrl: string;
  readonly clock: () => Date;
  readonly newId: () => string;
}

/** The clients as the screen lists them, with their supplier's business name. */
export async function withNames(
  deps: Pick<ApiClientsDeps, 'supplierNames'>,
  clients: readonly StoredApiClient[],
): Promise<ApiClient[]> {
  const names = await deps.supplierNames(clients.map((client) => client.taxId));
  return clients.map((client) => ({ ...client, supplierName: names.get(client.taxId) ?? null }));
}

/** The JWT authorizer's audience after a change: the ids of the clients not revoked. */
export async function setAudience(deps: Pick<ApiClientsDeps, 'repository' | 'audience'>): Promise<void> {
  const active = (await deps.repository.list())
    .filter((client) => client.revokedAt === null)
    .map((client) => client.clientId);
  await deps.audience.set(active);
}

/** The audit event of a change to an API client (named by its id and name, as an account by its id and e-mail). */
export function clientAudit(
  deps: Pick<ApiClientsDeps, 'newId' | 'clock'>,
  context: AdminContext,
  action: AuditEvent['action'],
  client: StoredApiClient,
  before: AuditValues | null,
  after: AuditValues | null,
): AuditEvent {
  return auditEvent(deps, context, action, { id: client.clientId, email: client.name }, before, after);
}
