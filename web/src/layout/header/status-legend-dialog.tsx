import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { INVOICE_STATUSES, INVOICE_STATUS_LABELS } from '@portal/shared';
import { INVOICE_STATUS_INDICATOR } from '../../components/status-indicators';
import { headerMessages } from './messages';

const text = headerMessages.legend;

/** The status legend's dialog (spec §2), loaded the first time the header's legend button is used. */
export default function StatusLegendDialog({ visible, onDismiss }: { visible: boolean; onDismiss: () => void }) {
  return (
    <Modal
      visible={visible}
      onDismiss={onDismiss}
      header={text.title}
      closeAriaLabel={text.close}
      footer={
        <Box float="right">
          <Button variant="primary" onClick={onDismiss}>
            {text.close}
          </Button>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <Box variant="p">{text.description}</Box>
        <ul className="portal-status-legend" aria-label={text.listLabel} data-testid="status-legend">
          {INVOICE_STATUSES.map((status) => (
            <li key={status} data-status={status}>
              <StatusIndicator type={INVOICE_STATUS_INDICATOR[status]}>{INVOICE_STATUS_LABELS[status]}</StatusIndicator>
              <Box variant="small" color="text-body-secondary" display="block">
                {text.meanings[status]}
              </Box>
            </li>
          ))}
        </ul>
      </SpaceBetween>
    </Modal>
  );
}
