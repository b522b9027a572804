import { useState, type ReactNode } from 'react';
import Alert from '@cloudscape-design/components/alert';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { errorMessage } from '../api/client';
import { ActionModal } from './action-modal';

export interface DecisionModalProps {
  readonly header: string;
  readonly confirmLabel: string;
  /**
   * Does what the user confirmed. A thrown error shows inside the dialog, where the user is (the display
   * rule of spec §8), and the dialog stays open for another try.
   */
  readonly onConfirm: () => Promise<unknown>;
  readonly onDismiss: () => void;
  /** The form is not complete: confirming only shows what is missing (`attempted` turns true). */
  readonly invalid?: boolean;
  /** The question, and any fields; a function receives whether the user already tried to confirm. */
  readonly children: ReactNode | ((state: { readonly attempted: boolean }) => ReactNode);
  readonly closeAriaLabel?: string;
  readonly testId?: string;
  readonly confirmTestId?: string;
}

/**
 * A decision asked before it is made: what will happen, the fields it needs, and one button that does it.
 * While the call runs the dialog cannot be closed or confirmed twice.
 */
export function DecisionModal(props: DecisionModalProps) {
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setAttempted(true);
    setError(null);
    if (props.invalid) return;
    setBusy(true);
    try {
      await props.onConfirm();
    } catch (cause) {
      setError(errorMessage(cause));
    } finally {
      setBusy(false);
    }
  };

  return (
    <ActionModal
      header={props.header}
      busy={busy}
      onDismiss={props.onDismiss}
      action={{ text: props.confirmLabel, onClick: () => void confirm(), testId: props.confirmTestId }}
      closeAriaLabel={props.closeAriaLabel}
      testId={props.testId}
    >
      <SpaceBetween size="m">
        {typeof props.children === 'function' ? props.children({ attempted }) : props.children}
        {error && <Alert type="error">{error}</Alert>}
      </SpaceBetween>
    </ActionModal>
  );
}
