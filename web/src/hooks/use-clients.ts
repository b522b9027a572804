import { routes, type Client } from '@portal/shared';
import { useApi } from '../api/use-api';

/** The companies of the group (GET /clients); they change rarely, so they are not refetched on focus. */
export function useClients(): { clients: Client[]; isLoading: boolean; error: Error | undefined } {
  const { data, isLoading, error } = useApi(routes.listClients, {}, { revalidateOnFocus: false });
  return { clients: data?.items ?? [], isLoading, error };
}
