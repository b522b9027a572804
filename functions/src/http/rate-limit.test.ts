import { describe, expect, it } from 'vitest';
import { API_CLIENT_RATE_DEFAULT, TooManyRequestsError } from '@portal/shared';
import { apiClientRateLimit, makeRateLimit, RATE_WINDOW_MS } from './rate-limit.js';

/** The table's counters, in memory: one per client and window. */
function counters() {
  const calls = new Map<string, number>();
  return {
    calls,
    count: async (clientId: string, windowStart: Date) => {
      const key = `${clientId}#${windowStart.toISOString()}`;
      calls.set(key, (calls.get(key) ?? 0) + 1);
      return calls.get(key)!;
    },
  };
}

describe('the per-client rate limit', () => {
  it('lets a client make its calls of the window, then answers 429 with the seconds to the next window', async () => {
    const table = counters();
    let now = 10 * RATE_WINDOW_MS + 15_500;
    const limit = makeRateLimit({ count: table.count, limit: 3, now: () => now });
    for (let i = 0; i < 3; i++) await limit('a');
    const refused = await limit('a').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TooManyRequestsError);
    expect((refused as TooManyRequestsError).statusCode).toBe(429);
    expect((refused as TooManyRequestsError).headers).toEqual({ 'retry-after': '45' });
    expect((refused as TooManyRequestsError).message).toBe(
      'El cliente de API superó las 3 solicitudes por minuto permitidas. Vuelva a intentarlo en 45 segundos.',
    );
    // Another client has its own count; the next window starts again.
    await limit('b');
    now = 11 * RATE_WINDOW_MS;
    await limit('a');
  });

  it('counts two calls at once both (the counter is the table’s atomic ADD)', async () => {
    const table = counters();
    const limit = makeRateLimit({ count: table.count, limit: 1, now: () => 0 });
    const outcomes = await Promise.allSettled([limit('a'), limit('a')]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('reads its limit from the environment, a positive integer or the default', () => {
    expect(apiClientRateLimit('60')).toBe(60);
    expect(apiClientRateLimit(undefined)).toBe(API_CLIENT_RATE_DEFAULT);
    expect(apiClientRateLimit('0')).toBe(API_CLIENT_RATE_DEFAULT);
    expect(apiClientRateLimit('muchas')).toBe(API_CLIENT_RATE_DEFAULT);
  });
});
