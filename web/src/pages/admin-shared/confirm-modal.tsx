import type { ReactNode } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { adminMessages } from './messages';

/** A yes/no question before a change to an account: what will happen, and one button that does it. */
export function ConfirmModal(props: {
  header: string;
  children: ReactNode;
  confirmLabel: string;
  busy: boolean;
  onConfirm: () => void;
  onDismiss: () => void;
  testId?: string;
}) {
  return (
    <Modal
      visible
      header={props.header}
      closeAriaLabel={adminMessages.closeModal}
      onDismiss={() => {
        if (!props.busy) props.onDismiss();
      }}
      data-testid={props.testId}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" disabled={props.busy} onClick={props.onDismiss}>
              {adminMessages.cancel}
            </Button>
            <Button variant="primary" loading={props.busy} onClick={props.onConfirm}>
              {props.confirmLabel}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      {props.children}
    </Modal>
  );
}
