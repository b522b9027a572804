import type { ReactNode } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal, { type ModalProps } from '@cloudscape-design/components/modal';
import { messages } from '../messages';

/** A dialog that only shows something: its one button, 'Cerrar' unless `closeText` says otherwise, closes it. */
export function InfoModal(props: {
  header: string;
  onDismiss: () => void;
  children: ReactNode;
  visible?: boolean;
  size?: ModalProps.Size;
  closeAriaLabel?: string;
  closeText?: string;
  testId?: string;
}) {
  return (
    <Modal
      visible={props.visible ?? true}
      size={props.size}
      header={props.header}
      closeAriaLabel={props.closeAriaLabel ?? messages.dialog.close}
      onDismiss={props.onDismiss}
      data-testid={props.testId}
      footer={
        <Box float="right">
          <Button variant="primary" onClick={props.onDismiss}>
            {props.closeText ?? messages.dialog.close}
          </Button>
        </Box>
      }
    >
      {props.children}
    </Modal>
  );
}
