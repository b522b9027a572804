import useSWR, { type SWRConfiguration, type SWRResponse } from 'swr';
import type { RouteDef, RouteResponse } from '@portal/shared';
import { useChosenCompany } from '../session/active-company';
import { useSessionEpoch } from '../session/session-epoch';
import { apiCall, type CallInput } from './client';

/** SWR key of a call: the route, the session, the company it acts for and its input. */
export type ApiKey = readonly [routeId: string, epoch: number, company: string | null, input: string];

/**
 * Reads a route through SWR. Pass `null` as input to hold the call (e.g. until a filter is known).
 * The chosen company is part of the key, so switching company refetches every screen's data.
 */
export function useApi<R extends RouteDef>(
  route: R,
  input: CallInput<R> | null,
  options?: SWRConfiguration<RouteResponse<R>, Error>,
): SWRResponse<RouteResponse<R>, Error> {
  const epoch = useSessionEpoch();
  const company = useChosenCompany();
  const key: ApiKey | null = input === null ? null : [route.id, epoch, company, JSON.stringify(input)];
  return useSWR<RouteResponse<R>, Error, ApiKey | null>(
    key,
    // The call input is the one captured with this key; apiCall's rest-tuple typing is generic over R.
    () => (apiCall as (r: RouteDef, i: unknown) => Promise<RouteResponse<R>>)(route, input),
    options,
  );
}
