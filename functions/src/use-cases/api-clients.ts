import {
  BadRequestError,
  ConflictError,
  NotFoundError,
  isValidRuc,
  type ApiClient,
  type AuditEvent,
  type AuditValues,
  type CreateApiClientBody,
  type CreatedApiClient,
} from '@portal/shared';
import type { AuthorizerAudience } from '../adapters/api-authorizer.js';
import type { AppClients } from '../adapters/cognito.js';
import type { ApiClientRepository, StoredApiClient } from '../repositories/api-clients.js';
import { auditEvent, type AdminContext } from './user-admin-accounts.js';

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

/**
 * A supplier's API clients: an administrator creates one for a supplier's RUC (a Cognito app client
 * with a secret, for the client-credentials grant, with the chosen scopes), lists them and revokes one. Cognito
 * is the commit point of a creation (an app client the table does not list yet has no claims: the trigger refuses
 * its tokens); a revocation is written to the table first (its tokens still valid are refused from then on), then
 * the app client is deleted (no new tokens).
 */
export function makeApiClients(deps: ApiClientsDeps) {
  const withNames = async (clients: readonly StoredApiClient[]): Promise<ApiClient[]> => {
    const names = await deps.supplierNames(clients.map((client) => client.taxId));
    return clients.map((client) => ({ ...client, supplierName: names.get(client.taxId) ?? null }));
  };

  const activeIds = async () =>
    (await deps.repository.list()).filter((client) => client.revokedAt === null).map((client) => client.clientId);

  const audit = (
    context: AdminContext,
    action: AuditEvent['action'],
    client: StoredApiClient,
    before: AuditValues | null,
    after: AuditValues | null,
  ): AuditEvent => auditEvent(deps, context, action, { id: client.clientId, email: client.name }, before, after);

  return {
    async list(): Promise<{ items: ApiClient[] }> {
      const clients = await deps.repository.list();
      clients.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.clientId.localeCompare(b.clientId));
      return { items: await withNames(clients) };
    },

    async create(context: AdminContext, body: CreateApiClientBody): Promise<CreatedApiClient> {
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
          audit(context, 'API_CLIENT_CREATED', client, null, { taxId: body.taxId, scopes: scopes.join(' ') }),
        );
      } catch (error) {
        // Not listed, it could never be revoked from the portal: take the app client back.
        await deps.appClients.delete(clientId);
        throw error;
      }
      await deps.audience.set(await activeIds());
      return { ...client, supplierName, clientSecret, tokenUrl: deps.tokenUrl };
    },

    async revoke(context: AdminContext, clientId: string): Promise<ApiClient> {
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
        audit(context, 'API_CLIENT_REVOKED', found, { revoked: false }, { revoked: true }),
      );
      if (!written) throw new ConflictError('ERROR_API_CLIENT_ALREADY_REVOKED');
      await deps.appClients.delete(clientId);
      await deps.audience.set(await activeIds());
      const [listed] = await withNames([revoked]);
      return listed!;
    },
  };
}

export type ApiClients = ReturnType<typeof makeApiClients>;
