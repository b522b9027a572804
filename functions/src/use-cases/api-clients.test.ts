import { describe, expect, it } from 'vitest';
import { PortalError, withCheckDigit, type AuditEvent } from '@portal/shared';
import type { StoredApiClient } from '../repositories/api-clients.js';
import { apiClientCalls } from './api-clients/api-client-calls.fake.js';
import type { ApiClientsDeps } from './api-clients/api-client-steps.js';

const SUPPLIER = withCheckDigit('2045617832');
const CONTEXT = { actor: { id: 'admin-1', email: 'admin@grupo.pe' }, txId: 'tx-1' };

/** The table, Cognito's app clients and the authorizer's audience, in memory. */
function world(options: { failCreate?: boolean } = {}) {
  const clients = new Map<string, StoredApiClient>();
  const audit: AuditEvent[] = [];
  const appClients = new Set<string>();
  const audiences: string[][] = [];
  let next = 0;
  const deps: ApiClientsDeps = {
    repository: {
      get: async (id) => clients.get(id) ?? null,
      list: async () => [...clients.values()],
      create: async (client, event) => {
        if (options.failCreate) throw new Error('DynamoDB no respondió');
        clients.set(client.clientId, client);
        audit.push(event);
      },
      revoke: async (client, event) => {
        if (clients.get(client.clientId)?.revokedAt !== null) return false;
        clients.set(client.clientId, client);
        audit.push(event);
        return true;
      },
    },
    appClients: {
      create: async () => {
        const clientId = `client${++next}`;
        appClients.add(clientId);
        return { clientId, clientSecret: `secret-of-${clientId}` };
      },
      delete: async (clientId) => {
        appClients.delete(clientId);
      },
    },
    audience: { set: async (ids) => void audiences.push([...ids]) },
    supplierNames: async (rucs) => new Map(rucs.filter((ruc) => ruc === SUPPLIER).map((ruc) => [ruc, 'Servicios SAC'])),
    tokenUrl: 'https://auth.example/oauth2/token',
    clock: () => new Date('2026-01-15T10:00:00.000Z'),
    newId: () => `id-${audit.length + 1}`,
  };
  return { deps, clients, audit, appClients, audiences };
}

const codeOf = async (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof PortalError ? `${error.statusCode} ${error.code}` : String(error)),
  );

describe('the API clients’ administration', () => {
  it('creates an app client for a known supplier, answers its secret once and keeps none of it', async () => {
    const { deps, clients, audit, audiences } = world();
    const apiClients = apiClientCalls(deps);
    const created = await apiClients.create(CONTEXT, {
      taxId: SUPPLIER,
      name: 'ERP',
      scopes: ['invoices.read', 'invoices.read'],
    });
    expect(created).toMatchObject({
      clientId: 'client1',
      clientSecret: 'secret-of-client1',
      supplierName: 'Servicios SAC',
      scopes: ['invoices.read'],
      tokenUrl: 'https://auth.example/oauth2/token',
      revokedAt: null,
    });
    expect(JSON.stringify([...clients.values()])).not.toContain('secret-of-client1');
    expect(audit.map((event) => [event.action, event.target.userId])).toEqual([['API_CLIENT_CREATED', 'client1']]);
    expect(audiences).toEqual([['client1']]);
    expect((await apiClients.list()).items.map((item) => item.clientId)).toEqual(['client1']);
  });

  it('refuses a bad RUC and a RUC no supplier has, before Cognito is asked', async () => {
    const { deps, appClients } = world();
    const apiClients = apiClientCalls(deps);
    expect(
      await codeOf(apiClients.create(CONTEXT, { taxId: '20456178320', name: 'x', scopes: ['invoices.read'] })),
    ).toBe('400 ERROR_INVALID_RUC');
    const unknown = withCheckDigit('2099999999');
    expect(await codeOf(apiClients.create(CONTEXT, { taxId: unknown, name: 'x', scopes: ['invoices.read'] }))).toBe(
      '404 ERROR_API_CLIENT_UNKNOWN_SUPPLIER',
    );
    expect(appClients.size).toBe(0);
  });

  it('takes the app client back when the table refuses the new client (no client the portal cannot revoke)', async () => {
    const { deps, appClients } = world({ failCreate: true });
    const apiClients = apiClientCalls(deps);
    expect(await codeOf(apiClients.create(CONTEXT, { taxId: SUPPLIER, name: 'x', scopes: ['invoices.read'] }))).toMatch(
      /DynamoDB/,
    );
    expect(appClients.size).toBe(0);
  });

  it('revokes: marks it, deletes the app client, takes it out of the audience; twice is a conflict', async () => {
    const { deps, audit, appClients, audiences } = world();
    const apiClients = apiClientCalls(deps);
    const created = await apiClients.create(CONTEXT, { taxId: SUPPLIER, name: 'ERP', scopes: ['invoices.read'] });
    const revoked = await apiClients.revoke(CONTEXT, created.clientId);
    expect(revoked).toMatchObject({ revokedAt: '2026-01-15T10:00:00.000Z', revokedBy: 'admin@grupo.pe' });
    expect(appClients.has(created.clientId)).toBe(false);
    expect(audiences.at(-1)).toEqual([]);
    expect(audit.map((event) => event.action)).toEqual(['API_CLIENT_CREATED', 'API_CLIENT_REVOKED']);
    expect(await codeOf(apiClients.revoke(CONTEXT, created.clientId))).toBe('409 ERROR_API_CLIENT_ALREADY_REVOKED');
    const unknown = (await apiClients.revoke(CONTEXT, 'nobody').catch((error: unknown) => error)) as PortalError;
    expect({ status: unknown.statusCode, code: unknown.code }).toEqual({
      status: 404,
      code: 'ERROR_API_CLIENT_NOT_FOUND',
    });
  });
});
