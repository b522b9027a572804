import Box from '@cloudscape-design/components/box';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { INVOICE_STATUSES } from '@portal/shared';
import { InvoiceStatusIndicator } from '../../components/status-indicators';
import { InfoModal } from '../../components/info-modal';
import { headerMessages } from './messages';

const text = headerMessages.legend;

/** The status legend's dialog (spec §2), loaded the first time the header's legend button is used. */
export default function StatusLegendDialog({ visible, onDismiss }: { visible: boolean; onDismiss: () => void }) {
  return (
    <InfoModal visible={visible} header={text.title} onDismiss={onDismiss}>
      <SpaceBetween size="m">
        <Box variant="p">{text.description}</Box>
        <ul className="portal-status-legend" aria-label={text.listLabel} data-testid="status-legend">
          {INVOICE_STATUSES.map((status) => (
            <li key={status} data-status={status}>
              <InvoiceStatusIndicator status={status} />
              <Box variant="small" color="text-body-secondary" display="block">
                {text.meanings[status]}
              </Box>
            </li>
          ))}
        </ul>
      </SpaceBetween>
    </InfoModal>
  );
}
