import { RUNTIME_ENV } from '@portal/shared';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { makeApiClientRateCounter } from '../repositories/api-client-rate.js';
import { makeDisabledUsersReader } from '../repositories/disabled-users.js';
import { DISABLED_USERS_TTL_MS, makeDisabledUsers, revokedApiClient, type DisabledUsers } from './disabled-users.js';
import { apiClientRateLimit, makeRateLimit } from './rate-limit.js';
import type { Caller } from './caller.js';

let disabledUsers: DisabledUsers | undefined;
let rateLimit: ((clientId: string) => Promise<void>) | undefined;

/**
 * API Gateway's JWT authorizer checks a token's signature and expiry only: an account disabled after its
 * token was issued would keep calling until the token expires (an hour). Every signed-in call is also
 * checked against the list of disabled accounts, read by the call itself (TTL 0, the default) or at most once per
 * TTL by each function instance. A revoked API client is in the same list (by its client id) and is answered 401
 * ERROR_API_CLIENT_REVOKED; a disabled account, 403 ERROR_USER_DISABLED. An API client's call is then counted
 * against its rate limit.
 */
export async function assertCallerEnabled(caller: Caller): Promise<void> {
  disabledUsers ??= makeDisabledUsers({
    read: makeDisabledUsersReader(documentClient, tableName()),
    ttlMs: DISABLED_USERS_TTL_MS,
    now: Date.now,
  });
  await disabledUsers.assertEnabled([caller.username, caller.sub], caller.machine ? revokedApiClient : undefined);
  if (caller.machine) {
    rateLimit ??= makeRateLimit({
      count: makeApiClientRateCounter(documentClient, tableName()),
      limit: apiClientRateLimit(process.env[RUNTIME_ENV.apiClientRateLimit]),
      now: Date.now,
    });
    await rateLimit(caller.machine.clientId);
  }
}
