import { ForbiddenError, RUNTIME_ENV, UnauthorizedError, type PortalError } from '@portal/shared';

/** The longest a stage may let an instance trust what it read (RUNTIME_ENV.disabledUsersTtlSeconds). */
export const DISABLED_USERS_MAX_TTL_SECONDS = 60;

/**
 * The TTL of the environment's value: seconds from 0 to 60; anything else (or nothing) is 0, the product's bound:
 * a disabled account or a revoked API client is refused on its very next call (docs/adr/0014-access-ends-when-it-should.md).
 */
export function disabledUsersTtlMs(value: string | undefined): number {
  const seconds = value === undefined || value.trim() === '' ? NaN : Number(value);
  const valid = Number.isFinite(seconds) && seconds >= 0 && seconds <= DISABLED_USERS_MAX_TTL_SECONDS;
  return (valid ? seconds : 0) * 1000;
}

export interface DisabledUsersDeps {
  /**
   * Reads the set of disabled accounts (repositories/disabled-users.ts); `consistent` asks for a strongly
   * consistent read, which sees every write acknowledged before it.
   */
  readonly read: (options: { readonly consistent: boolean }) => Promise<ReadonlySet<string>>;
  readonly ttlMs: number;
  /** Milliseconds, as Date.now. */
  readonly now: () => number;
}

export interface DisabledUsers {
  /**
   * Refuses when any of the caller's names (Username, sub, an API client's id) is in the set: with `refusal`'s
   * error, else 403 ERROR_USER_DISABLED.
   */
  assertEnabled(names: readonly string[], refusal?: () => PortalError): Promise<void>;
}

/** What a revoked API client's call is answered: its credentials are no longer valid at all. */
export const revokedApiClient = () => new UnauthorizedError('ERROR_API_CLIENT_REVOKED');

/**
 * The per-instance view of the disabled accounts.
 * - TTL 0 (the default): every call reads the item itself, strongly consistent, so a disable or a revocation
 *   acknowledged before the call is seen by it: no read is shared, since one that started before the write would not.
 * - A TTL above 0 (a stage that trades the bound for fewer reads): read once, trusted for `ttlMs` from the moment the
 *   read started; calls arriving while a read is under way wait for that read instead of sending their own.
 * A failed read is never kept: the call fails and the next one reads again.
 */
export function makeDisabledUsers(deps: DisabledUsersDeps): DisabledUsers {
  let cached: { users: ReadonlySet<string>; readAt: number } | null = null;
  let reading: Promise<ReadonlySet<string>> | null = null;

  function current(): Promise<ReadonlySet<string>> | ReadonlySet<string> {
    if (deps.ttlMs === 0) return deps.read({ consistent: true });
    if (cached && deps.now() - cached.readAt < deps.ttlMs) return cached.users;
    if (!reading) {
      const startedAt = deps.now();
      reading = deps
        .read({ consistent: false })
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
    async assertEnabled(names, refusal = () => new ForbiddenError('ERROR_USER_DISABLED')) {
      const users = await current();
      if (names.some((name) => name !== '' && users.has(name))) throw refusal();
    },
  };
}

/** The TTL this instance runs with (read once at cold start). */
export const DISABLED_USERS_TTL_MS = disabledUsersTtlMs(process.env[RUNTIME_ENV.disabledUsersTtlSeconds]);
