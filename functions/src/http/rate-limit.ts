import { API_CLIENT_RATE_DEFAULT, TooManyRequestsError } from '@portal/shared';

/** The fixed window an API client's calls are counted in. */
export const RATE_WINDOW_MS = 60_000;

/** The environment's calls per minute: a positive integer, else the default. */
export function apiClientRateLimit(value: string | undefined): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : API_CLIENT_RATE_DEFAULT;
}

export interface RateLimitDeps {
  /** Counts the call in the client's window and answers the window's count (repositories/api-client-rate.ts). */
  readonly count: (clientId: string, windowStart: Date) => Promise<number>;
  readonly limit: number;
  /** Milliseconds, as Date.now. */
  readonly now: () => number;
}

/**
 * The per-client limit of the API: a fixed window counter in the table, shared by every function
 * instance. Past the limit the call is refused with 429 and Retry-After, the seconds until the next window.
 * In AWS the firewall's rate-based rule per Authorization header stands before it (infra firewall.ts).
 */
export function makeRateLimit(deps: RateLimitDeps) {
  return async (clientId: string): Promise<void> => {
    const now = deps.now();
    const windowStart = Math.floor(now / RATE_WINDOW_MS) * RATE_WINDOW_MS;
    const calls = await deps.count(clientId, new Date(windowStart));
    if (calls > deps.limit) {
      const retryAfter = Math.max(1, Math.ceil((windowStart + RATE_WINDOW_MS - now) / 1000));
      throw new TooManyRequestsError(retryAfter, deps.limit);
    }
  };
}
