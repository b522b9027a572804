import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { RouteDef } from '@portal/shared';

/**
 * Drops every cached answer of a route (useApi keys start with the route id) (all its pages and filters), so the next screen or modal that
 * reads it starts from the server instead of showing what was true before a change.
 */
export function useForgetRoute(): (route: RouteDef) => Promise<void> {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (route: RouteDef) => {
      await mutate((key: unknown) => Array.isArray(key) && (key as unknown[])[0] === route.id, undefined, {
        revalidate: false,
      });
    },
    [mutate],
  );
}
