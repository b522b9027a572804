import Box from '@cloudscape-design/components/box';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import {
  INVOICE_STATUS_LABELS,
  SUNAT_RECHECK_HISTORY_TITLE,
  formatDateTime,
  isAcquirerConformityHistoryEntry,
  type StatusHistoryEntry,
} from '@portal/shared';
import { InvoiceStatusIndicator } from '../../../components/status-indicators';
import { TableEmptyState } from '../../../components/table-empty-state';
import { InfoModal } from '../../../components/info-modal';
import { detailMessages } from './messages';

const text = detailMessages.history;

interface HistoryRow {
  readonly index: number;
  readonly entry: StatusHistoryEntry;
  readonly from: StatusHistoryEntry['status'] | null;
}

/*
 * Two columns, each with its detail beneath, so that who, when, from→to and why all read on a phone
 * (375 px) without scrolling sideways.
 */
const COLUMNS: TableProps.ColumnDefinition<HistoryRow>[] = [
  {
    id: 'when',
    header: text.columns.when,
    isRowHeader: true,
    cell: (row) => (
      <div>
        <div data-testid="history-when">{formatDateTime(row.entry.date, { zone: true })}</div>
        <Box variant="small" color="text-body-secondary">
          {row.entry.by ?? text.system}
        </Box>
      </div>
    ),
  },
  {
    id: 'change',
    header: text.columns.change,
    cell: (row) => {
      // A new SUNAT check asked for is an event of its own: the status does not change.
      const sunatRecheck = row.entry.title === SUNAT_RECHECK_HISTORY_TITLE;
      // So is what the Ley 29623 clock records (an answer registered, the presumed conformity): its text says it all.
      const conformity = isAcquirerConformityHistoryEntry(row.entry);
      return (
        <div data-testid="history-entry" data-title={row.entry.title}>
          {sunatRecheck || conformity ? (
            <div>{row.entry.title}</div>
          ) : (
            <div>
              {row.from ? text.from(INVOICE_STATUS_LABELS[row.from]) : text.initial}{' '}
              <InvoiceStatusIndicator status={row.entry.status} />
            </div>
          )}
          {row.entry.additionalMessage && (
            <Box variant="small" color="text-body-secondary">
              {sunatRecheck
                ? text.previousAnswer(row.entry.additionalMessage)
                : conformity
                  ? row.entry.additionalMessage
                  : text.reason(row.entry.additionalMessage)}
            </Box>
          )}
        </div>
      );
    },
  },
];

/** Spec §2 'Historial': who changed the status, when, from what to what, and why. */
export function HistoryModal(props: {
  readonly number: string;
  readonly history: readonly StatusHistoryEntry[];
  readonly onDismiss: () => void;
}) {
  const rows: HistoryRow[] = props.history.map((entry, index) => ({
    index,
    entry,
    from: index > 0 ? props.history[index - 1]!.status : null,
  }));
  return (
    <InfoModal size="large" header={text.header} onDismiss={props.onDismiss}>
      <div data-testid="invoice-history">
        <Box color="text-body-secondary" margin={{ bottom: 's' }}>
          {text.description(props.number)}
        </Box>
        <Table
          variant="embedded"
          ariaLabels={{ tableLabel: text.tableLabel(props.number) }}
          columnDefinitions={COLUMNS}
          items={rows}
          trackBy={(row) => String(row.index)}
          wrapLines
          empty={<TableEmptyState message={text.empty} />}
        />
      </div>
    </InfoModal>
  );
}
