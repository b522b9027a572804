import { ConflictError, type PasswordResetResult } from '@portal/shared';
import { auditEvent, type AdminContext, type UserAdminDeps } from '../user-admin-accounts.js';
import { externalAccount, sendInvitation } from './supplier-accounts.js';

/**
 * A supplier who never signed in (FORCE_CHANGE_PASSWORD) cannot use Cognito's reset code: it gets a new
 * temporary password in a new invitation. Anyone else gets Cognito's code by e-mail (ForgotPassword).
 */
export async function resetExternalUserPassword(
  deps: UserAdminDeps,
  context: AdminContext,
  userId: string,
): Promise<PasswordResetResult> {
  const { directory } = deps;
  const user = await externalAccount(deps, userId);
  if (!user.enabled) throw new ConflictError('ERROR_USER_DISABLED', { userId: user.id });
  if (user.status === 'FORCE_CHANGE_PASSWORD') {
    const temporaryPassword = deps.newPassword();
    await directory.setTemporaryPassword(user.id, temporaryPassword);
    await deps.commit({
      put: [],
      remove: [],
      audit: auditEvent(deps, context, 'INVITATION_RESENT', user, { status: user.status }, { status: user.status }),
    });
    await sendInvitation(deps, user, temporaryPassword);
    return {
      delivery: 'INVITATION',
      message: `Se envió a ${user.email} una nueva invitación con una contraseña temporal.`,
    };
  }
  await directory.startPasswordReset(user.id);
  await deps.commit({
    put: [],
    remove: [],
    audit: auditEvent(deps, context, 'PASSWORD_RESET_STARTED', user, { status: user.status }, { status: user.status }),
  });
  return {
    delivery: 'RESET_CODE',
    message: `Se envió a ${user.email} un correo con el código para restablecer la contraseña.`,
  };
}
