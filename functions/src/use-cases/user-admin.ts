import type { Logger } from '@aws-lambda-powertools/logger';
import {
  BadRequestError,
  ConflictError,
  NotFoundError,
  PortalError,
  UNEXPECTED_ERROR_MESSAGE,
  computeLevel,
  isValidRuc,
  normalizeForSearch,
  type AuditAction,
  type AuditEvent,
  type AuditValues,
  type BulkUserResult,
  type CreatedExternalUser,
  type ExternalUser,
  type InternalUser,
  type PasswordResetResult,
  type RouteBody,
  type RouteQuery,
  type Routes,
  type SupplierProfile,
} from '@portal/shared';
import type { Mailer } from '../adapters/email.js';
import type { Caller } from '../http/caller.js';
import type { AccountIndexRepository } from '../repositories/account-index.js';
import type { AuditLogRepository } from '../repositories/audit-log.js';
import type { ClientRepository } from '../repositories/clients.js';
import type { Page } from '../repositories/page.js';
import type { SupplierProfileRepository } from '../repositories/supplier-profiles.js';
import type { SupplierDirectoryRepository } from '../repositories/suppliers.js';
import { decodeUserCursor, encodeUserCursor } from './user-admin-cursor.js';
import { invitationEmail } from './user-admin-invitation.js';
import {
  MAX_DIRECTORY_PAGE,
  type AccountChange,
  type AccountEntry,
  type DirectoryUser,
  type UserDirectory,
} from './user-admin-ports.js';

/** Cognito pages one user listing may read per request: its cost stays bounded however large the pool. */
export const POOL_PAGES_PER_REQUEST = 3;
/** Supplier profiles one search page resolves to accounts (each a RUC's index read and an AdminGetUser per account). */
export const PROFILES_PER_SEARCH_PAGE = 20;
/** Cognito calls in flight at once for one request. */
const CONCURRENCY = 5;

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

type ExternalUsersQuery = RouteQuery<Routes['listExternalUsers']>;
type InternalUsersQuery = RouteQuery<Routes['listInternalUsers']>;
type AuditEventsQuery = RouteQuery<Routes['listAuditEvents']>;
type CreateExternalUserBody = RouteBody<Routes['createExternalUser']>;

/** Runs `work` over `items` with at most `limit` in flight, answers in the items' order. */
async function mapBounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
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

const joined = (values: readonly string[]) => (values.length > 0 ? values.join(',') : null);

/**
 * The user administration (spec §2 Employees and Suppliers, §7 user calls), for administrators only.
 * Cognito holds the accounts; DynamoDB holds what Cognito cannot: each RUC's account index (who gets
 * e-mail, and how a supplier's accounts are found) and the audit log. Every change is made in Cognito
 * first — the commit point — and only then written to DynamoDB, the index and its audit event together.
 */
export function makeUserAdmin(deps: UserAdminDeps) {
  const { directory, accounts, profiles, clients, clock } = deps;

  // --- reading accounts -------------------------------------------------------------------------

  async function companyNames(users: readonly DirectoryUser[]): Promise<Map<string, SupplierProfile>> {
    return profiles.getMany(users.flatMap((user) => user.taxIds));
  }

  function toExternalUser(user: DirectoryUser, names: ReadonlyMap<string, SupplierProfile>): ExternalUser {
    const companies = user.taxIds.flatMap((taxId) => names.get(taxId)?.name ?? []);
    return {
      id: user.id,
      taxId: joined(user.taxIds),
      firstName: user.firstName,
      lastName: user.lastName,
      role: 'SUPPLIER',
      companyName: companies.length > 0 ? companies.join(', ') : null,
      email: user.email,
      enabled: user.enabled,
      status: user.status,
      createdAt: user.createdAt,
      canReceiveEmails: user.emailNotifications,
    };
  }

  async function externalView(user: DirectoryUser): Promise<ExternalUser> {
    return toExternalUser(user, await companyNames([user]));
  }

  async function companiesByTaxId(): Promise<Map<string, string>> {
    return new Map((await clients.listAll()).map((client) => [client.taxId, client.name]));
  }

  function toInternalUser(user: DirectoryUser, companies: ReadonlyMap<string, string>): InternalUser {
    return {
      id: user.id,
      taxId: joined(user.taxIds),
      firstName: user.firstName,
      lastName: user.lastName,
      role: computeLevel({ federated: true, groups: [...user.groups], adminGroupName: deps.adminGroupName }),
      companyName: user.taxIds.length > 0 ? user.taxIds.map((t) => companies.get(t) ?? t).join(', ') : null,
      email: user.email,
      enabled: user.enabled,
      status: user.status,
      createdAt: user.createdAt,
    };
  }

  /** A supplier account: unknown ids and staff (federated) accounts are not found here. */
  async function externalAccount(userId: string): Promise<DirectoryUser> {
    const user = await directory.getUser(userId);
    if (!user || user.federated) throw new NotFoundError('ERROR_USER_NOT_FOUND', { userId });
    return user;
  }

  /** A staff account: only corporate SSO (federated) users are internal users. */
  async function internalAccount(userId: string): Promise<DirectoryUser> {
    const user = await directory.getUser(userId);
    if (!user || !user.federated) throw new NotFoundError('ERROR_USER_NOT_FOUND', { userId });
    return user;
  }

  /**
   * Pages of the pool kept by `keep`, read until the page is full, Cognito has no more, or the read
   * budget is spent (a short page then still carries a cursor). Each read asks only for what is
   * missing, so Cognito's token always resumes right after the last account returned.
   */
  async function poolPage(
    scope: string,
    page: { limit: number; cursor?: string | undefined },
    keep: (user: DirectoryUser) => boolean,
    emailPrefix?: string,
  ): Promise<{ users: DirectoryUser[]; nextCursor: string | null }> {
    let token = decodeUserCursor(scope, page.cursor);
    const users: DirectoryUser[] = [];
    let reads = 0;
    do {
      const result = await directory.listUsers({ limit: page.limit - users.length, token, emailPrefix });
      users.push(...result.users.filter(keep));
      token = result.nextToken ?? undefined;
      reads += 1;
    } while (token !== undefined && users.length < page.limit && reads < POOL_PAGES_PER_REQUEST);
    return { users, nextCursor: encodeUserCursor(scope, token ?? null) };
  }

  /** Supplier profiles by RUC or name prefix, then their accounts through each RUC's account index. */
  async function accountsOfSuppliers(
    scope: string,
    page: { limit: number; cursor?: string | undefined },
    search: (page: { limit: number; cursor?: string | undefined }) => Promise<Page<SupplierProfile>>,
  ): Promise<Page<ExternalUser>> {
    const found = await search({
      limit: Math.min(page.limit, PROFILES_PER_SEARCH_PAGE),
      cursor: decodeUserCursor(scope, page.cursor),
    });
    const indexes = await Promise.all(found.items.map((profile) => accounts.accountsOf(profile.taxId)));
    const ids = [...new Set(indexes.flat().map((account) => account.userId))];
    const users = (await mapBounded(ids, CONCURRENCY, (id) => directory.getUser(id))).filter(
      (user): user is DirectoryUser => user !== null && !user.federated,
    );
    // An account indexed under two ids (its e-mail and its sub) is listed once.
    const unique = [...new Map(users.map((user) => [user.id, user])).values()];
    const names = await companyNames(unique);
    for (const profile of found.items) names.set(profile.taxId, names.get(profile.taxId) ?? profile);
    const order = new Map(found.items.map((profile, i) => [profile.taxId, i]));
    const rank = (user: DirectoryUser) =>
      Math.min(...user.taxIds.map((taxId) => order.get(taxId) ?? Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER);
    unique.sort((a, b) => rank(a) - rank(b) || a.email.localeCompare(b.email));
    return {
      items: unique.map((user) => toExternalUser(user, names)),
      nextCursor: encodeUserCursor(scope, found.nextCursor),
    };
  }

  // --- writing ----------------------------------------------------------------------------------

  function auditEvent(
    context: AdminContext,
    action: AuditAction,
    target: DirectoryUser,
    before: AuditValues | null,
    after: AuditValues | null,
  ): AuditEvent {
    return {
      id: deps.newId(),
      occurredAt: clock().toISOString(),
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
  const entryOf = (user: DirectoryUser): AccountEntry => ({
    userId: user.id,
    email: user.email,
    canReceiveEmails: user.enabled && user.emailNotifications,
  });

  /**
   * Entries of a RUC's index for the account's address under another id (indexed before the account had
   * its sub as id, as the seed does): replaced by the account's own, so that nobody is e-mailed twice.
   */
  async function strayEntries(taxId: string, user: DirectoryUser): Promise<AccountChange['remove']> {
    return (await accounts.accountsOf(taxId))
      .filter((entry) => entry.userId !== user.id && sameAddress(entry.email, user.email))
      .map((entry) => ({ taxId, userId: entry.userId }));
  }

  /** The account-index entries of `user` for each of its RUCs, brought in line with Cognito. */
  async function indexOf(user: DirectoryUser): Promise<Pick<AccountChange, 'put' | 'remove'>> {
    const taxIds = [...new Set(user.taxIds)];
    const strays = await Promise.all(taxIds.map((taxId) => strayEntries(taxId, user)));
    return { put: taxIds.map((taxId) => ({ taxId, entry: entryOf(user) })), remove: strays.flat() };
  }

  async function sendInvitation(user: DirectoryUser, temporaryPassword: string): Promise<void> {
    const taxId = user.taxIds[0];
    const name = taxId ? ((await profiles.getMany([taxId])).get(taxId)?.name ?? null) : null;
    await deps.mailer.send(
      invitationEmail({
        email: user.email,
        firstName: user.firstName,
        temporaryPassword,
        company: taxId ? { name, taxId } : null,
        portalUrl: deps.portalUrl,
      }),
    );
  }

  async function setEmailReception(context: AdminContext, userId: string, include: boolean): Promise<ExternalUser> {
    const user = await externalAccount(userId);
    const changed = user.emailNotifications !== include;
    if (changed) await directory.updateUser(user.id, { emailNotifications: include });
    const updated: DirectoryUser = { ...user, emailNotifications: include };
    await deps.commit({
      ...(await indexOf(updated)),
      audit: changed
        ? auditEvent(
            context,
            'EMAIL_NOTIFICATIONS_CHANGED',
            user,
            { canReceiveEmails: user.emailNotifications },
            { canReceiveEmails: include },
          )
        : null,
    });
    return externalView(updated);
  }

  /**
   * Disabling: Cognito revokes the account's refresh tokens and disables it, and the account enters the list
   * the API refuses (within a minute, whatever tokens it holds). Enabling takes it out; the account signs in
   * again. The sign-out comes first, while the account is still enabled. A repeated call (also the retry of
   * one that died half-way) writes the same end state again, without a second audit event.
   */
  async function setEnabled(context: AdminContext, userId: string, enabled: boolean): Promise<ExternalUser> {
    const user = await externalAccount(userId);
    const changed = user.enabled !== enabled;
    if (!enabled) await directory.signOut(user.id);
    if (changed && enabled) await directory.enable(user.id);
    if (changed && !enabled) await directory.disable(user.id);
    const updated: DirectoryUser = { ...user, enabled };
    await deps.commit({
      ...(await indexOf(updated)),
      access: { userId: user.id, disabled: !enabled },
      audit: changed
        ? auditEvent(context, enabled ? 'USER_ENABLED' : 'USER_DISABLED', user, { enabled: !enabled }, { enabled })
        : null,
    });
    return externalView(updated);
  }

  return {
    /**
     * Supplier accounts (federated staff are left out). No query: the pool in Cognito's order. With '@': an
     * e-mail prefix (Cognito filter). Digits: a RUC prefix; other text: a business-name prefix — both
     * through the supplier directory and each RUC's account index.
     */
    async listExternalUsers(query: ExternalUsersQuery): Promise<Page<ExternalUser>> {
      const text = query.query?.trim() ?? '';
      const page = { limit: query.limit, cursor: query.cursor };
      if (text === '' || text.includes('@')) {
        const emailPrefix = text === '' ? undefined : text.toLowerCase();
        const scope = emailPrefix === undefined ? 'external' : `external:email:${emailPrefix}`;
        const { users, nextCursor } = await poolPage(scope, page, (user) => !user.federated, emailPrefix);
        const names = await companyNames(users);
        return { items: users.map((user) => toExternalUser(user, names)), nextCursor };
      }
      if (/^\d+$/.test(text)) {
        return accountsOfSuppliers(`external:ruc:${text}`, page, (p) => deps.supplierSearch.listByRucPrefix(text, p));
      }
      const name = normalizeForSearch(text);
      // Punctuation alone normalizes to nothing; it must not list the whole directory.
      if (!name) return { items: [], nextCursor: null };
      return accountsOfSuppliers(`external:name:${name}`, page, (p) => deps.supplierSearch.listByNamePrefix(name, p));
    },

    /** Staff accounts: the federated users of the pool, with their level and companies. */
    async listInternalUsers(query: InternalUsersQuery): Promise<Page<InternalUser>> {
      const [{ users, nextCursor }, companies] = await Promise.all([
        poolPage('internal', { limit: query.limit, cursor: query.cursor }, (user) => user.federated),
        companiesByTaxId(),
      ]);
      return { items: users.map((user) => toInternalUser(user, companies)), nextCursor };
    },

    /**
     * A supplier's account:
     * 1. the RUC's check digit, and no account with the address (Cognito also refuses a second one);
     * 2. the account in Cognito, with a temporary password and Cognito's own message suppressed;
     * 3. the supplier's profile in the directory, unless it is there;
     * 4. the RUC's account index and the audit event, together;
     * 5. the invitation, sent by the portal. If it cannot leave, the account stands: reset-password sends
     *    another, and the answer says so.
     */
    async createExternalUser(context: AdminContext, body: CreateExternalUserBody): Promise<CreatedExternalUser> {
      if (!isValidRuc(body.taxId)) throw new BadRequestError('ERROR_INVALID_RUC', { ruc: body.taxId });
      const existing = await directory.listUsers({ limit: MAX_DIRECTORY_PAGE, email: body.email });
      if (existing.users.length > 0) throw new ConflictError('ERROR_USER_ALREADY_EXISTS');

      const temporaryPassword = deps.newPassword();
      const user = await directory.createUser({
        email: body.email,
        firstName: body.firstName,
        lastName: body.lastName,
        taxIds: [body.taxId],
        emailNotifications: body.canReceiveEmails,
        temporaryPassword,
      });
      const profile = await profiles.createIfAbsent({ taxId: body.taxId, name: body.businessName });
      await deps.commit({
        ...(await indexOf(user)),
        audit: auditEvent(context, 'USER_CREATED', user, null, {
          email: user.email,
          firstName: user.firstName,
          lastName: user.lastName,
          taxId: joined(user.taxIds),
          canReceiveEmails: user.emailNotifications,
          enabled: user.enabled,
          status: user.status,
        }),
      });
      let invitationSent = true;
      try {
        await sendInvitation(user, temporaryPassword);
      } catch (error) {
        invitationSent = false;
        deps.log.error('invitation not sent', { userId: user.id, error: error as Error });
      }
      return { ...toExternalUser(user, new Map([[profile.taxId, profile]])), invitationSent };
    },

    /**
     * A supplier who never signed in (FORCE_CHANGE_PASSWORD) cannot use Cognito's reset code: it gets a new
     * temporary password in a new invitation. Anyone else gets Cognito's code by e-mail (ForgotPassword).
     */
    async resetExternalUserPassword(context: AdminContext, userId: string): Promise<PasswordResetResult> {
      const user = await externalAccount(userId);
      if (!user.enabled) throw new ConflictError('ERROR_USER_DISABLED', { userId: user.id });
      if (user.status === 'FORCE_CHANGE_PASSWORD') {
        const temporaryPassword = deps.newPassword();
        await directory.setTemporaryPassword(user.id, temporaryPassword);
        await deps.commit({
          put: [],
          remove: [],
          audit: auditEvent(context, 'INVITATION_RESENT', user, { status: user.status }, { status: user.status }),
        });
        await sendInvitation(user, temporaryPassword);
        return {
          delivery: 'INVITATION',
          message: `Se envió a ${user.email} una nueva invitación con una contraseña temporal.`,
        };
      }
      await directory.startPasswordReset(user.id);
      await deps.commit({
        put: [],
        remove: [],
        audit: auditEvent(context, 'PASSWORD_RESET_STARTED', user, { status: user.status }, { status: user.status }),
      });
      return {
        delivery: 'RESET_CODE',
        message: `Se envió a ${user.email} un correo con el código para restablecer la contraseña.`,
      };
    },

    /** A disabled account cannot sign in, and its index entries stop its e-mail until it is enabled again. */
    disableExternalUser: (context: AdminContext, userId: string) => setEnabled(context, userId, false),
    enableExternalUser: (context: AdminContext, userId: string) => setEnabled(context, userId, true),

    /** custom:emailNotifications in Cognito, and canReceiveEmails on every index entry of the account's RUCs. */
    whitelistNotifications: (context: AdminContext, userId: string, include: boolean) =>
      setEmailReception(context, userId, include),

    /** The same for many accounts: each succeeds or fails alone, and the answer says which. */
    async whitelistNotificationsBulk(
      context: AdminContext,
      userIds: readonly string[],
      include: boolean,
    ): Promise<{ results: BulkUserResult[] }> {
      const results = await mapBounded(userIds, CONCURRENCY, async (userId): Promise<BulkUserResult> => {
        try {
          await setEmailReception(context, userId, include);
          return { userId, ok: true };
        } catch (error) {
          if (error instanceof PortalError) {
            return { userId, ok: false, error: { code: error.code, message: error.message } };
          }
          deps.log.error('bulk e-mail reception change failed', { userId, error: error as Error });
          return { userId, ok: false, error: { code: null, message: UNEXPECTED_ERROR_MESSAGE } };
        }
      });
      return { results };
    },

    /** Adds a company to a staff account's taxId list (it keeps the others); idempotent. */
    async assignClient(context: AdminContext, userId: string, client: string): Promise<InternalUser> {
      const [user, companies] = await Promise.all([internalAccount(userId), companiesByTaxId()]);
      if (!companies.has(client)) throw new NotFoundError('ERROR_CLIENT_NOT_FOUND', { client });
      if (user.taxIds.includes(client)) return toInternalUser(user, companies);

      const taxIds = [...user.taxIds, client];
      await directory.updateUser(user.id, { taxIds });
      const updated: DirectoryUser = { ...user, taxIds };
      await deps.commit({
        put: [{ taxId: client, entry: entryOf(updated) }],
        remove: await strayEntries(client, user),
        audit: auditEvent(context, 'CLIENT_ASSIGNED', user, { taxId: joined(user.taxIds) }, { taxId: joined(taxIds) }),
      });
      return toInternalUser(updated, companies);
    },

    /** Removes a company from a staff account's taxId list, and its e-mail about that company; idempotent. */
    async unassignClient(context: AdminContext, userId: string, client: string): Promise<InternalUser> {
      const [user, companies] = await Promise.all([internalAccount(userId), companiesByTaxId()]);
      if (!user.taxIds.includes(client)) {
        if (!companies.has(client)) throw new NotFoundError('ERROR_CLIENT_NOT_FOUND', { client });
        return toInternalUser(user, companies);
      }
      const taxIds = user.taxIds.filter((taxId) => taxId !== client);
      await directory.updateUser(user.id, { taxIds });
      const updated: DirectoryUser = { ...user, taxIds };
      await deps.commit({
        put: [],
        remove: [{ taxId: client, userId: user.id }, ...(await strayEntries(client, user))],
        audit: auditEvent(
          context,
          'CLIENT_UNASSIGNED',
          user,
          { taxId: joined(user.taxIds) },
          { taxId: joined(taxIds) },
        ),
      });
      return toInternalUser(updated, companies);
    },

    listAuditEvents(query: AuditEventsQuery): Promise<Page<AuditEvent>> {
      return deps.auditLog.list({ userId: query.userId }, { limit: query.limit, cursor: query.cursor });
    },
  };
}

export type UserAdmin = ReturnType<typeof makeUserAdmin>;
