import type { ApiClient } from '@portal/shared';
import { withNames, type ApiClientsDeps } from './api-client-steps.js';

/** The API clients, newest first, with their supplier's business name. */
export async function listApiClients(
  deps: Pick<ApiClientsDeps, 'repository' | 'supplierNames'>,
): Promise<{ items: ApiClient[] }> {
  const clients = await deps.repository.list();
  clients.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.clientId.localeCompare(b.clientId));
  return { items: await withNames(deps, clients) };
}
