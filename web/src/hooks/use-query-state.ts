import { useCallback, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * The URL's query, with a change that builds on the last change this screen made. Two changes in a row
 * (a month then a year, two options ticked quickly) must not lose the first: the router's search params
 * only update once its navigation settles (a transition, later under load), so each change builds on
 * the last one made, until the URL has caught up or changed from elsewhere (a link from the header).
 * Each change replaces the history entry.
 */
export function useQueryState() {
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  const routerKey = useRef(key);
  routerKey.current = key;
  /** The last query this screen set, and every query the URL may pass through on its way there. */
  const pending = useRef<{ readonly route: Set<string>; readonly next: URLSearchParams } | null>(null);

  const ours = () => pending.current !== null && pending.current.route.has(routerKey.current);
  /** Sets the query to `next`. */
  const replace = useCallback(
    (next: URLSearchParams) => {
      const route = ours() ? pending.current!.route : new Set([routerKey.current]);
      route.add(next.toString());
      pending.current = { route, next };
      setParams(next, { replace: true });
    },
    [setParams],
  );
  /** The query this screen last set while the URL is on its way there, else the URL's. */
  const latest = useCallback(() => new URLSearchParams(ours() ? pending.current!.next : routerKey.current), []);
  return { key, latest, replace };
}
