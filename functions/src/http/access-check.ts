import { documentClient, tableName } from '../adapters/dynamodb.js';
import { makeDisabledUsersReader } from '../repositories/disabled-users.js';
import { DISABLED_USERS_TTL_MS, makeDisabledUsers, type DisabledUsers } from './disabled-users.js';
import type { Caller } from './caller.js';

let disabledUsers: DisabledUsers | undefined;

/**
 * API Gateway's JWT authorizer checks a token's signature and expiry only: an account disabled after its
 * token was issued would keep calling until the token expires (an hour). Every signed-in call is also
 * checked against the list of disabled accounts, read at most once per TTL by each function instance.
 */
export function assertCallerEnabled(caller: Caller): Promise<void> {
  disabledUsers ??= makeDisabledUsers({
    read: makeDisabledUsersReader(documentClient, tableName()),
    ttlMs: DISABLED_USERS_TTL_MS,
    now: Date.now,
  });
  return disabledUsers.assertEnabled(caller.username, caller.sub);
}
