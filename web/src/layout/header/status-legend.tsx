import { useState } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import type { TopNavigationProps } from '@cloudscape-design/components/top-navigation';
import { INVOICE_STATUSES, INVOICE_STATUS_LABELS, type InvoiceStatus } from '@portal/shared';
import { headerMessages } from './messages';
import './header.css';

const text = headerMessages.legend;

/**
 * How each invoice status is drawn. The invoices table (pages/invoices/columns.tsx) draws its status
 * column with the same types, so the legend reads the same as the table.
 */
export const INVOICE_STATUS_INDICATOR: Record<InvoiceStatus, StatusIndicatorProps.Type> = {
  PENDING: 'warning',
  COMPLETED: 'info',
  ACCEPTED: 'success',
  REJECTED: 'error',
  SCHEDULED: 'pending',
  PAID: 'success',
};

/** The header's status legend (spec §2): a button that opens what every status of spec §4 means. */
export function useStatusLegend(): { utility: TopNavigationProps.ButtonUtility; dialog: React.ReactNode } {
  const [open, setOpen] = useState(false);
  const utility: TopNavigationProps.ButtonUtility = {
    type: 'button',
    iconName: 'status-info',
    text: text.button,
    title: text.button,
    ariaLabel: text.button,
    onClick: () => setOpen(true),
  };
  const dialog = (
    <Modal
      visible={open}
      onDismiss={() => setOpen(false)}
      header={text.title}
      closeAriaLabel={text.close}
      footer={
        <Box float="right">
          <Button variant="primary" onClick={() => setOpen(false)}>
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
  return { utility, dialog };
}
