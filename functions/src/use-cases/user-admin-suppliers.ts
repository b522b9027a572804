import {
  BadRequestError,
  ConflictError,
  NotFoundError,
  PortalError,
  UNEXPECTED_ERROR_MESSAGE,
  isValidRuc,
  normalizeForSearch,
  type BulkUserResult,
  type CreatedExternalUser,
  type ExternalUser,
  type PasswordResetResult,
  type RouteBody,
  type RouteQuery,
  type Routes,
  type SupplierProfile,
} from '@portal/shared';
import type { Page } from '../repositories/page.js';
import {
  CONCURRENCY,
  joined,
  mapBounded,
  type AccountTools,
  type AdminContext,
  type UserAdminDeps,
} from './user-admin-accounts.js';
import { decodeUserCursor, encodeUserCursor } from './user-admin-cursor.js';
import { invitationEmail } from './user-admin-invitation.js';
import { MAX_DIRECTORY_PAGE, type DirectoryUser } from './user-admin-ports.js';

/** Supplier profiles one search page resolves to accounts (each a RUC's index read and an AdminGetUser per account). */
export const PROFILES_PER_SEARCH_PAGE = 20;

type ExternalUsersQuery = RouteQuery<Routes['listExternalUsers']>;
type CreateExternalUserBody = RouteBody<Routes['createExternalUser']>;

/**
 * The administration of supplier accounts (spec §2 Suppliers): the pool's non-federated users, found by e-mail,
 * RUC or business name; created with an invitation, reset, enabled and disabled, their e-mail reception set.
 */
export function makeSupplierAdmin(deps: UserAdminDeps, tools: AccountTools) {
  const { directory, accounts, profiles } = deps;
  const { poolPage, auditEvent, indexOf } = tools;

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

  /** A supplier account: unknown ids and staff (federated) accounts are not found here. */
  async function externalAccount(userId: string): Promise<DirectoryUser> {
    const user = await directory.getUser(userId);
    if (!user || user.federated) throw new NotFoundError('ERROR_USER_NOT_FOUND', { userId });
    return user;
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
  };
}
