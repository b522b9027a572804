import Box from '@cloudscape-design/components/box';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { routes, type ExternalUser } from '@portal/shared';
import { apiCall } from '../../api/client';
import { useFeedback } from '../../feedback/feedback';
import { DecisionModal } from '../../components/decision-modal';
import { adminMessages } from '../admin-shared/messages';
import { suppliersMessages } from './messages';

const text = suppliersMessages;

/** The options of a supplier row that change the account, each asked before it is done. */
export type ConfirmableAction = 'reset' | 'disable' | 'enable';

const COPY = {
  reset: text.resetConfirm,
  disable: text.disableConfirm,
  enable: text.enableConfirm,
} as const;

/** What the action does, and the sentence that says it was done. */
async function perform(action: ConfirmableAction, user: ExternalUser): Promise<string> {
  const path = { userId: user.id };
  switch (action) {
    case 'reset': {
      const result = await apiCall(routes.resetExternalUserPassword, { path });
      return result.delivery === 'INVITATION'
        ? text.resetConfirm.sentInvitation(user.email)
        : text.resetConfirm.sentCode(user.email);
    }
    case 'disable':
      await apiCall(routes.disableExternalUser, { path });
      return text.disableConfirm.done(user.email);
    case 'enable':
      await apiCall(routes.enableExternalUser, { path });
      return text.enableConfirm.done(user.email);
  }
}

/**
 * The confirmation of 'Enviar correo de restablecimiento de contraseña', 'Deshabilitar' and 'Habilitar'.
 * The outcome is reported above the screen once the modal closed: a reset says whether a code or a new
 * invitation was sent.
 */
export function SupplierConfirmModal(props: {
  user: ExternalUser;
  action: ConfirmableAction;
  onDismiss: () => void;
  onDone: () => void;
}) {
  const feedback = useFeedback();
  const copy = COPY[props.action];

  const confirm = async () => {
    try {
      feedback.success(await perform(props.action, props.user));
    } catch (error) {
      feedback.error(error);
    } finally {
      props.onDone();
    }
  };

  return (
    <DecisionModal
      header={copy.title}
      confirmLabel={copy.confirm}
      closeAriaLabel={adminMessages.closeModal}
      onConfirm={confirm}
      onDismiss={props.onDismiss}
      testId={`confirm-${props.action}`}
    >
      <SpaceBetween size="s">
        <Box variant="p">{copy.body(props.user.email)}</Box>
        <Box variant="p" color="text-body-secondary">
          {copy.detail}
        </Box>
      </SpaceBetween>
    </DecisionModal>
  );
}
