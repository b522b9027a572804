import { ForbiddenError, RUNTIME_ENV } from '@portal/shared';

/** How long an instance trusts what it read, unless RUNTIME_ENV.disabledUsersTtlSeconds says less. */
export const DISABLED_USERS_MAX_TTL_SECONDS = 60;

/** The TTL of the environment's value: seconds from 0 to 60; anything else (or nothing) is 60. */
export function disabledUsersTtlMs(value: string | undefined): number {
  const seconds = value === undefined || value.trim() === '' ? NaN : Number(value);
  const valid = Number.isFinite(seconds) && seconds >= 0 && seconds <= DISABLED_USERS_MAX_TTL_SECONDS;
  return (valid ? seconds : DISABLED_USERS_MAX_TTL_SECONDS) * 1000;
}

export interface DisabledUsersDeps {
  /** Reads the set of disabled accounts (repositories/disabled-users.ts). */
  readonly read: () => Promise<ReadonlySet<string>>;
  readonly ttlMs: number;
  /** Milliseconds, as Date.now. */
  readonly now: () => number;
}

export interface DisabledUsers {
  /** Refuses with 403 ERROR_USER_DISABLED when any of the caller's names (Username, sub) is in the set. */
  assertEnabled(...names: readonly string[]): Promise<void>;
}

/**
 * The per-instance cache of disabled accounts: read once, trusted for `ttlMs` from the moment the read
 * started, then read again. Requests arriving while a read is under way wait for that read instead of
 * sending their own. A failed read is not cached: the request fails and the next one reads again.
 */
export function makeDisabledUsers(deps: DisabledUsersDeps): DisabledUsers {
  let cached: { users: ReadonlySet<string>; readAt: number } | null = null;
  let reading: Promise<ReadonlySet<string>> | null = null;

  function current(): Promise<ReadonlySet<string>> | ReadonlySet<string> {
    if (cached && deps.now() - cached.readAt < deps.ttlMs) return cached.users;
    if (!reading) {
      const startedAt = deps.now();
      reading = deps
        .read()
        .then((users) => {
          cached = { users, readAt: startedAt };
          return users;
        })
        .finally(() => {
          reading = null;
        });
    }
    return reading;
  }

  return {
    async assertEnabled(...names) {
      const users = await current();
      if (names.some((name) => name !== '' && users.has(name))) throw new ForbiddenError('ERROR_USER_DISABLED');
    },
  };
}

/** The TTL this instance runs with (read once at cold start). */
export const DISABLED_USERS_TTL_MS = disabledUsersTtlMs(process.env[RUNTIME_ENV.disabledUsersTtlSeconds]);
