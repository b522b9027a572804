import Box from '@cloudscape-design/components/box';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import {
  INVOICE_AUDIT_ACTION_LABELS,
  INVOICE_STATUS_LABELS,
  LEVEL_LABELS,
  SIGN_IN_METHOD_LABELS,
  SUNAT_RECHECK_HISTORY_TITLE,
  formatDateTime,
  isAcquirerConformityHistoryEntry,
  routes,
  type Currency,
  type InvoiceAuditEvent,
  type StatusHistoryEntry,
} from '@portal/shared';
import { InvoiceStatusIndicator } from '../../../components/status-indicators';
import { TableEmptyState } from '../../../components/table-empty-state';
import { InfoModal } from '../../../components/info-modal';
import { AuditTimeline, type TimelineEntry } from '../../../components/audit-timeline';
import { useCursorPages } from '../../../hooks/use-cursor-pages';
import { changeLinesOf } from './audit-values';
import { detailMessages } from './messages';

const text = detailMessages.history;
const TRAIL_PAGE_SIZE = 20;

interface HistoryRow {
  readonly index: number;
  readonly entry: StatusHistoryEntry;
  readonly from: StatusHistoryEntry['status'] | null;
}

/*
 * Two columns, each with its detail beneath, so that who, when, from→to and why all read on a phone
 * (375 px) without scrolling sideways.
 */
const STATUS_COLUMNS: TableProps.ColumnDefinition<HistoryRow>[] = [
  {
    id: 'when',
    header: text.status.columns.when,
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
    header: text.status.columns.change,
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

/** A record of the invoice's trail as the timeline shows it (the administrators' history of an account reads alike). */
function entryOf(event: InvoiceAuditEvent, currency: Currency): TimelineEntry {
  const { actor } = event;
  return {
    id: event.id,
    occurredAt: event.occurredAt,
    action: INVOICE_AUDIT_ACTION_LABELS[event.action],
    who: actor.name,
    whoDetail: [
      ...(actor.email && actor.email !== actor.name ? [actor.email] : []),
      ...(actor.role ? [LEVEL_LABELS[actor.role]] : []),
      SIGN_IN_METHOD_LABELS[actor.signIn],
    ],
    note: event.note,
    lines: changeLinesOf(event.changes, currency, event.action === 'SUBMITTED'),
    call: event.txId,
  };
}

/**
 * 'Historial' (spec §2): the invoice's audit trail, oldest first — every change with who made it (name,
 * role, how they signed in), when, from which call, and the before and after of each field it touched. An invoice
 * registered before the trail existed also shows its status history, which is all that was kept of its past then.
 */
export function HistoryModal(props: {
  readonly path: { readonly supplierId: string; readonly invoiceType: string; readonly invoiceId: string };
  readonly number: string;
  readonly currency: Currency;
  readonly history: readonly StatusHistoryEntry[];
  readonly onDismiss: () => void;
}) {
  const trail = useCursorPages(routes.listInvoiceHistory, {}, TRAIL_PAGE_SIZE, { path: props.path });
  const firstPageLoaded = !trail.isLoading && !trail.error && trail.pageIndex === 0;
  const beforeTrail = firstPageLoaded && trail.items[0]?.action !== 'SUBMITTED';
  // An empty trail says so only when nothing else is listed: the status history below is the invoice's changes then.
  const trailShown = !(beforeTrail && trail.items.length === 0 && props.history.length > 0);
  const rows: HistoryRow[] = props.history.map((entry, index) => ({
    index,
    entry,
    from: index > 0 ? props.history[index - 1]!.status : null,
  }));
  return (
    <InfoModal size="max" header={text.header} onDismiss={props.onDismiss}>
      <SpaceBetween size="l">
        <div>
          <Box color="text-body-secondary" margin={{ bottom: 's' }}>
            {text.description(props.number)}
          </Box>
          {trailShown && (
            <AuditTimeline
              testId="invoice-trail"
              label={text.tableLabel(props.number)}
              entries={trail.items.map((event) => entryOf(event, props.currency))}
              pages={trail}
              loadingText={text.loading}
              emptyText={text.empty}
              callText={text.call}
            />
          )}
        </div>
        {beforeTrail && (
          <div data-testid="invoice-history">
            <Box variant="h3" margin={{ bottom: 'xs' }}>
              {text.status.header}
            </Box>
            <Box color="text-body-secondary" margin={{ bottom: 's' }}>
              {text.status.description}
            </Box>
            <Table
              variant="embedded"
              ariaLabels={{ tableLabel: text.status.tableLabel(props.number) }}
              columnDefinitions={STATUS_COLUMNS}
              items={rows}
              trackBy={(row) => String(row.index)}
              wrapLines
              empty={<TableEmptyState message={text.status.empty} />}
            />
          </div>
        )}
      </SpaceBetween>
    </InfoModal>
  );
}
