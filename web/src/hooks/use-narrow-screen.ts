import { useSyncExternalStore } from 'react';

/**
 * A phone-wide screen: Cloudscape's mobile breakpoint (688 px), below which the invoices list shows cards and the
 * dashboard's donut callout labels no longer fit beside it.
 */
export const NARROW_SCREEN_QUERY = '(max-width: 688px)';

function subscribe(listener: () => void): () => void {
  const query = window.matchMedia(NARROW_SCREEN_QUERY);
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

/** Whether the screen is phone-wide, following rotations and resizes. */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(NARROW_SCREEN_QUERY).matches,
    () => false,
  );
}
