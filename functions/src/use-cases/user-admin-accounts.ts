import type { Logger } from '@aws-lambda-powertools/logger';
import type { AuditAction, AuditEvent, AuditValues } from '@portal/shared';
import type { Mailer } from '../adapters/email.js';
import type { Caller } from '../http/caller.js';
import type { AccountIndexRepository } from '../repositories/account-index.js';
import type { AuditLogRepository } from '../repositories/audit-log.js';
import type { ClientRepository } from '../repositories/clients.js';
import type { SupplierProfileRepository } from '../repositories/supplier-profiles.js';
import type { SupplierDirectoryRepository } from '../repositories/suppliers.js';
import { decodeUserCursor, encodeUserCursor } from './user-admin-cursor.js';
import type { AccountChange, AccountEntry, DirectoryUser, UserDirectory } from './user-admin-ports.js';

/** Cognito pages one user listing may read per request: its cost stays bounded however large the pool. */
export const POOL_PAGES_PER_REQUEST = 3;
/** Cognito calls in flight at once for one request. */
export const CONCURRENCY = 5;

/** Who makes a change and in which request: what the audit log records. */
export interface AdminContext {
  readonly actor: { readonly id: string; readonly email: string };
  readonly txId: string;
}

export const adminContextOf = (caller: Caller, txId: string): AdminContext => ({
  actor: { id: caller.sub, email: caller.email },
  txId,
});

export interface UserAdminDeps {
  readonly directory: UserDirectory;
  readonly accounts: AccountIndexRepository;
  readonly auditLog: AuditLogRepository;
  /** Writes the account-index changes and the audit event of one change, together. */
  readonly commit: (change: AccountChange) => Promise<void>;
  readonly supplierSearch: SupplierDirectoryRepository;
  readonly profiles: SupplierProfileRepository;
  readonly clients: ClientRepository;
  readonly mailer: Mailer;
  readonly clock: () => Date;
  readonly newId: () => string;
  readonly newPassword: () => string;
  /** The web app's address, for the invitation. */
  readonly portalUrl: string | null;
  readonly adminGroupName: string;
  readonly log: Pick<Logger, 'error' | 'warn'>;
}

/** Runs `work` over `items` with at most `limit` in flight, answers in the items' order. */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  });
  await Promise.all(lanes);
  return results;
}

export const joined = (values: readonly string[]) => (values.length > 0 ? values.join(',') : null);

// What the supplier and the staff administration share: reading the pool page by page, and writing a change to
// an account's index entries with its audit event.

/**
 * Pages of the pool kept by `keep`, read until the page is full, Cognito has no more, or the read
 * budget is spent (a short page then still carries a cursor). Each read asks only for what is
 * missing, so Cognito's token always resumes right after the last account returned.
 */
export async function poolPage(
  deps: Pick<UserAdminDeps, 'directory'>,
  scope: string,
  page: { limit: number; cursor?: string | undefined },
  keep: (user: DirectoryUser) => boolean,
  emailPrefix?: string,
): Promise<{ users: DirectoryUser[]; nextCursor: string | null }> {
  let token = decodeUserCursor(scope, page.cursor);
  const users: DirectoryUser[] = [];
  let reads = 0;
  do {
    const result = await deps.directory.listUsers({ limit: page.limit - users.length, token, emailPrefix });
    users.push(...result.users.filter(keep));
    token = result.nextToken ?? undefined;
    reads += 1;
  } while (token !== undefined && users.length < page.limit && reads < POOL_PAGES_PER_REQUEST);
  return { users, nextCursor: encodeUserCursor(scope, token ?? null) };
}

/** The audit event of a change to an account, by the context's administrator, now. */
export function auditEvent(
  deps: Pick<UserAdminDeps, 'newId' | 'clock'>,
  context: AdminContext,
  action: AuditAction,
  target: Pick<DirectoryUser, 'id' | 'email'>,
  before: AuditValues | null,
  after: AuditValues | null,
): AuditEvent {
  return {
    id: deps.newId(),
    occurredAt: deps.clock().toISOString(),
    action,
    actor: context.actor,
    target: { userId: target.id, email: target.email },
    before,
    after,
    txId: context.txId,
  };
}

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** What an account's index entry says: it gets e-mail while enabled and with reception on. */
export const entryOf = (user: DirectoryUser): AccountEntry => ({
  userId: user.id,
  email: user.email,
  canReceiveEmails: user.enabled && user.emailNotifications,
});

/**
 * Entries of a RUC's index for the account's address under another id (indexed before the account had
 * its sub as id, as the seed does): replaced by the account's own, so that nobody is e-mailed twice.
 */
export async function strayEntries(
  deps: Pick<UserAdminDeps, 'accounts'>,
  taxId: string,
  user: DirectoryUser,
): Promise<AccountChange['remove']> {
  return (await deps.accounts.accountsOf(taxId))
    .filter((entry) => entry.userId !== user.id && sameAddress(entry.email, user.email))
    .map((entry) => ({ taxId, userId: entry.userId }));
}

/** The account-index entries of `user` for each of its RUCs, brought in line with Cognito. */
export async function indexOf(
  deps: Pick<UserAdminDeps, 'accounts'>,
  user: DirectoryUser,
): Promise<Pick<AccountChange, 'put' | 'remove'>> {
  const taxIds = [...new Set(user.taxIds)];
  const strays = await Promise.all(taxIds.map((taxId) => strayEntries(deps, taxId, user)));
  return { put: taxIds.map((taxId) => ({ taxId, entry: entryOf(user) })), remove: strays.flat() };
}
