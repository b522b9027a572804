import { NotFoundError, type ExternalUser, type SupplierProfile } from '@portal/shared';
import { auditEvent, indexOf, joined, type AdminContext, type UserAdminDeps } from '../user-admin-accounts.js';
import { invitationEmail } from '../user-admin-invitation.js';
import type { DirectoryUser } from '../user-admin-ports.js';

/**
 * What the administration of supplier accounts shares (spec §2 Suppliers): the pool's non-federated users as the
 * screens show them, found by id, invited, enabled and disabled, their e-mail reception set.
 */

export async function companyNames(
  deps: Pick<UserAdminDeps, 'profiles'>,
  users: readonly DirectoryUser[],
): Promise<Map<string, SupplierProfile>> {
  return deps.profiles.getMany(users.flatMap((user) => user.taxIds));
}

export function toExternalUser(user: DirectoryUser, names: ReadonlyMap<string, SupplierProfile>): ExternalUser {
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

async function externalView(deps: Pick<UserAdminDeps, 'profiles'>, user: DirectoryUser): Promise<ExternalUser> {
  return toExternalUser(user, await companyNames(deps, [user]));
}

/** A supplier account: unknown ids and staff (federated) accounts are not found here. */
export async function externalAccount(deps: Pick<UserAdminDeps, 'directory'>, userId: string): Promise<DirectoryUser> {
  const user = await deps.directory.getUser(userId);
  if (!user || user.federated) throw new NotFoundError('ERROR_USER_NOT_FOUND', { userId });
  return user;
}

/** The portal's invitation, with the temporary password and the company the account acts for. */
export async function sendInvitation(
  deps: Pick<UserAdminDeps, 'profiles' | 'mailer' | 'portalUrl'>,
  user: DirectoryUser,
  temporaryPassword: string,
): Promise<void> {
  const taxId = user.taxIds[0];
  const name = taxId ? ((await deps.profiles.getMany([taxId])).get(taxId)?.name ?? null) : null;
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

/** custom:emailNotifications in Cognito, and canReceiveEmails on every index entry of the account's RUCs. */
export async function setEmailReception(
  deps: UserAdminDeps,
  context: AdminContext,
  userId: string,
  include: boolean,
): Promise<ExternalUser> {
  const user = await externalAccount(deps, userId);
  const changed = user.emailNotifications !== include;
  if (changed) await deps.directory.updateUser(user.id, { emailNotifications: include });
  const updated: DirectoryUser = { ...user, emailNotifications: include };
  await deps.commit({
    ...(await indexOf(deps, updated)),
    audit: changed
      ? auditEvent(
          deps,
          context,
          'EMAIL_NOTIFICATIONS_CHANGED',
          user,
          { canReceiveEmails: user.emailNotifications },
          { canReceiveEmails: include },
        )
      : null,
  });
  return externalView(deps, updated);
}

/**
 * Disabling: Cognito revokes the account's refresh tokens and disables it, and the account enters the list
 * the API refuses (within a minute, whatever tokens it holds). Enabling takes it out; the account signs in
 * again. The sign-out comes first, while the account is still enabled. A repeated call (also the retry of
 * one that died half-way) writes the same end state again, without a second audit event. A disabled account cannot
 * sign in, and its index entries stop its e-mail until it is enabled again.
 */
export async function setExternalUserEnabled(
  deps: UserAdminDeps,
  context: AdminContext,
  userId: string,
  enabled: boolean,
): Promise<ExternalUser> {
  const { directory } = deps;
  const user = await externalAccount(deps, userId);
  const changed = user.enabled !== enabled;
  if (!enabled) await directory.signOut(user.id);
  if (changed && enabled) await directory.enable(user.id);
  if (changed && !enabled) await directory.disable(user.id);
  const updated: DirectoryUser = { ...user, enabled };
  await deps.commit({
    ...(await indexOf(deps, updated)),
    access: { userId: user.id, disabled: !enabled },
    audit: changed
      ? auditEvent(deps, context, enabled ? 'USER_ENABLED' : 'USER_DISABLED', user, { enabled: !enabled }, { enabled })
      : null,
  });
  return externalView(deps, updated);
}
