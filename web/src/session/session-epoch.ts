import { useSyncExternalStore } from 'react';

/**
 * Bumped at every sign-in and sign-out. It is part of every data key, so nothing cached or still in
 * flight for the previous user can answer for the next one (SWR would otherwise dedupe against it).
 */
let epoch = 0;
const listeners = new Set<() => void>();

export function sessionEpoch(): number {
  return epoch;
}

export function nextSessionEpoch(): number {
  epoch += 1;
  listeners.forEach((listener) => listener());
  return epoch;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSessionEpoch(): number {
  return useSyncExternalStore(subscribe, sessionEpoch, sessionEpoch);
}
