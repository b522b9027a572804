import { useSyncExternalStore } from 'react';

/** Below this width the donut's callout labels no longer fit beside it (Cloudscape's "xs" breakpoint). */
const NARROW = '(max-width: 688px)';

function subscribe(listener: () => void): () => void {
  const query = window.matchMedia(NARROW);
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

/** Whether the screen is phone-wide, following rotations and resizes. */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(NARROW).matches,
    () => false,
  );
}
