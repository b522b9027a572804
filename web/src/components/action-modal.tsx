import type { ReactNode } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { messages } from '../messages';

/** The one button that does what the dialog is for: a click, or the submit of the form named `form`. */
export interface ActionButton {
  readonly text: string;
  readonly onClick?: () => void;
  /** The id of the form inside the dialog that this button submits. */
  readonly form?: string;
  readonly disabled?: boolean;
  readonly testId?: string;
}

/**
 * A dialog that does something: 'Cancelar' and its one primary button. While `busy` the button spins and
 * the dialog cannot be closed or cancelled.
 */
export function ActionModal(props: {
  header: string;
  busy: boolean;
  onDismiss: () => void;
  action: ActionButton;
  children: ReactNode;
  cancelText?: string;
  closeAriaLabel?: string;
  testId?: string;
}) {
  const { action } = props;
  return (
    <Modal
      visible
      header={props.header}
      closeAriaLabel={props.closeAriaLabel ?? messages.dialog.close}
      onDismiss={() => !props.busy && props.onDismiss()}
      data-testid={props.testId}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={props.onDismiss} disabled={props.busy}>
              {props.cancelText ?? messages.dialog.cancel}
            </Button>
            <Button
              variant="primary"
              form={action.form}
              loading={props.busy}
              disabled={action.disabled}
              onClick={action.onClick}
              data-testid={action.testId}
            >
              {action.text}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      {props.children}
    </Modal>
  );
}
