import {
  BadRequestError,
  ConflictError,
  isValidRuc,
  type CreatedExternalUser,
  type RouteBody,
  type Routes,
} from '@portal/shared';
import { auditEvent, indexOf, joined, type AdminContext, type UserAdminDeps } from '../user-admin-accounts.js';
import { MAX_DIRECTORY_PAGE } from '../user-admin-ports.js';
import { sendInvitation, toExternalUser } from './supplier-accounts.js';

type CreateExternalUserBody = RouteBody<Routes['createExternalUser']>;

/**
 * A supplier's account:
 * 1. the RUC's check digit, and no account with the address (Cognito also refuses a second one);
 * 2. the account in Cognito, with a temporary password and Cognito's own message suppressed;
 * 3. the supplier's profile in the directory, unless it is there;
 * 4. the RUC's account index and the audit event, together;
 * 5. the invitation, sent by the portal. If it cannot leave, the account stands: reset-password sends
 *    another, and the answer says so.
 */
export async function createExternalUser(
  deps: UserAdminDeps,
  context: AdminContext,
  body: CreateExternalUserBody,
): Promise<CreatedExternalUser> {
  const { directory } = deps;
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
  const profile = await deps.profiles.createIfAbsent({ taxId: body.taxId, name: body.businessName });
  await deps.commit({
    ...(await indexOf(deps, user)),
    audit: auditEvent(deps, context, 'USER_CREATED', user, null, {
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
    await sendInvitation(deps, user, temporaryPassword);
  } catch (error) {
    invitationSent = false;
    deps.log.error('invitation not sent', { userId: user.id, error: error as Error });
  }
  return { ...toExternalUser(user, new Map([[profile.taxId, profile]])), invitationSent };
}
