import { describe, expect, it } from 'vitest';
import { PortalError } from '@portal/shared';
import { disabledUsersTtlMs, makeDisabledUsers, revokedApiClient } from './disabled-users.js';

/** A table holding the list, a clock the test moves, and a count of the reads. */
function setup(ttlMs = 60_000) {
  let now = 1_000_000;
  const table = { users: new Set<string>(), reads: 0, fail: false, consistent: [] as boolean[] };
  const disabledUsers = makeDisabledUsers({
    read: async ({ consistent }) => {
      table.reads++;
      table.consistent.push(consistent);
      if (table.fail) throw new Error('DynamoDB unavailable');
      return new Set(table.users);
    },
    ttlMs,
    now: () => now,
  });
  const refusal = (name: string) =>
    disabledUsers.assertEnabled([name]).then(
      () => null,
      (error: unknown) => (error instanceof PortalError ? { status: error.statusCode, code: error.code } : error),
    );
  return { table, disabledUsers, refusal, advance: (ms: number) => (now += ms) };
}

describe('the cache of disabled accounts', () => {
  it('refuses a listed account with 403 ERROR_USER_DISABLED and lets the others through', async () => {
    const { table, refusal } = setup();
    table.users.add('ana-sub');

    expect(await refusal('ana-sub')).toEqual({ status: 403, code: 'ERROR_USER_DISABLED' });
    expect(await refusal('beto-sub')).toBeNull();
  });

  it('reads the table once within the TTL, however many calls', async () => {
    const { table, refusal, advance } = setup();
    await refusal('ana-sub');
    table.users.add('ana-sub');
    advance(59_999);

    expect(await refusal('ana-sub')).toBeNull();
    expect(table.reads).toBe(1);
  });

  it('reads it again once the TTL has passed, and then refuses an account disabled meanwhile', async () => {
    const { table, refusal, advance } = setup();
    await refusal('ana-sub');
    table.users.add('ana-sub');
    advance(60_000);

    expect(await refusal('ana-sub')).toEqual({ status: 403, code: 'ERROR_USER_DISABLED' });
    expect(table.reads).toBe(2);
    table.users.delete('ana-sub');
    advance(60_000);
    expect(await refusal('ana-sub')).toBeNull();
  });

  it('sends one read for calls arriving together', async () => {
    const { table, disabledUsers } = setup();
    await Promise.all(Array.from({ length: 20 }, () => disabledUsers.assertEnabled(['beto-sub'])));
    expect(table.reads).toBe(1);
  });

  it('does not keep a failed read: the call fails, the next one reads again', async () => {
    const { table, refusal } = setup();
    table.fail = true;
    await expect(refusal('ana-sub')).resolves.toEqual(new Error('DynamoDB unavailable'));
    table.fail = false;
    table.users.add('ana-sub');

    expect(await refusal('ana-sub')).toEqual({ status: 403, code: 'ERROR_USER_DISABLED' });
    expect(table.reads).toBe(2);
  });

  it('with a TTL of 0, every call reads for itself, strongly consistent, and sees a disable just before it', async () => {
    const { table, refusal, disabledUsers } = setup(0);
    expect(await refusal('ana-sub')).toBeNull();
    table.users.add('ana-sub');
    expect(await refusal('ana-sub')).toEqual({ status: 403, code: 'ERROR_USER_DISABLED' });
    // Calls at once share no read: one that began before a write would not see it.
    await Promise.all(Array.from({ length: 5 }, () => disabledUsers.assertEnabled(['beto-sub'])));
    expect(table.reads).toBe(7);
    expect(new Set(table.consistent)).toEqual(new Set([true]));
  });

  it("answers with the caller's refusal when it gives one: a revoked API client's 401", async () => {
    const { table, disabledUsers } = setup(0);
    table.users.add('client-1');
    await expect(disabledUsers.assertEnabled(['client-1'], revokedApiClient)).rejects.toMatchObject({
      statusCode: 401,
      code: 'ERROR_API_CLIENT_REVOKED',
    });
  });
});

describe('the TTL the environment sets', () => {
  it('is 0 (every call reads) unless a number of seconds from 0 to 60 is given', () => {
    expect(disabledUsersTtlMs(undefined)).toBe(0);
    expect(disabledUsersTtlMs('')).toBe(0);
    expect(disabledUsersTtlMs('1')).toBe(1_000);
    expect(disabledUsersTtlMs('60')).toBe(60_000);
    expect(disabledUsersTtlMs('3600')).toBe(0);
    expect(disabledUsersTtlMs('-5')).toBe(0);
    expect(disabledUsersTtlMs('soon')).toBe(0);
  });
});
