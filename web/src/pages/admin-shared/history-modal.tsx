import Box from '@cloudscape-design/components/box';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import {
  AUDIT_ACTION_LABELS,
  USER_STATUS_LABELS,
  formatDateTime,
  parseTaxIds,
  routes,
  type AuditEvent,
  type AuditValues,
  type Client,
} from '@portal/shared';
import { useClients } from '../../hooks/use-clients';
import { TableEmptyState } from '../../components/table-empty-state';
import { CursorPagination } from '../../components/cursor-pagination';
import { InfoModal } from '../../components/info-modal';
import { ChangeList, type ChangeLine } from '../../components/change-list';
import { adminMessages } from './messages';
import { useCursorPages } from '../../hooks/use-cursor-pages';
import { displayName } from './user-cell';

const text = adminMessages.history;
const HISTORY_PAGE_SIZE = 10;

/** Whose history: staff accounts hold companies in taxId, supplier accounts their own RUC. */
export type HistoryKind = 'internal' | 'external';

export interface HistoryTarget {
  readonly id: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
}

function describeValue(field: string, value: AuditValues[string] | undefined, kind: HistoryKind, clients: Client[]) {
  if (value === null || value === undefined || value === '') return text.values.none;
  if (typeof value === 'boolean') {
    if (field === 'canReceiveEmails') return value ? text.values.receptionOn : text.values.receptionOff;
    if (field === 'enabled') return value ? text.values.enabled : text.values.disabled;
    return value ? text.values.yes : text.values.no;
  }
  if (field === 'status') return USER_STATUS_LABELS[value] ?? value;
  if (field === 'taxId' && kind === 'internal') {
    return parseTaxIds(value)
      .map((taxId) => clients.find((client) => client.taxId === taxId)?.name ?? taxId)
      .join(', ');
  }
  return value;
}

function fieldLabel(field: string, kind: HistoryKind): string {
  if (field === 'taxId') return kind === 'internal' ? text.fields.taxIdCompanies! : text.fields.taxIdRuc!;
  return text.fields[field] ?? field;
}

/** Each attribute the change touched: 'Label: before → after' (a creation has no before). */
function ChangeCell({ event, kind, clients }: { event: AuditEvent; kind: HistoryKind; clients: Client[] }) {
  const fields = [...new Set([...Object.keys(event.before ?? {}), ...Object.keys(event.after ?? {})])];
  const lines: ChangeLine[] = fields.map((field) => ({
    label: fieldLabel(field, kind),
    kind: 'value',
    before: event.before === null ? null : describeValue(field, event.before[field], kind, clients),
    after: describeValue(field, event.after?.[field], kind, clients),
  }));
  return <ChangeList lines={lines} />;
}

function columns(kind: HistoryKind, clients: Client[]): TableProps.ColumnDefinition<AuditEvent>[] {
  return [
    {
      id: 'when',
      header: text.columns.when,
      cell: (event) => formatDateTime(event.occurredAt, { zone: true }),
      isRowHeader: true,
    },
    { id: 'who', header: text.columns.who, cell: (event) => event.actor.email },
    {
      id: 'action',
      header: text.columns.action,
      cell: (event) => <span data-testid="history-action">{AUDIT_ACTION_LABELS[event.action]}</span>,
    },
    {
      id: 'change',
      header: text.columns.change,
      cell: (event) => <ChangeCell event={event} kind={kind} clients={clients} />,
    },
  ];
}

/** 'Historial': the changes administrators made to one account (GET /audit-events?userId), newest first. */
export function HistoryModal({
  user,
  kind,
  onDismiss,
}: {
  user: HistoryTarget;
  kind: HistoryKind;
  onDismiss: () => void;
}) {
  const { clients } = useClients();
  const events = useCursorPages(routes.listAuditEvents, { userId: user.id }, HISTORY_PAGE_SIZE);
  const name = displayName(user);

  return (
    <InfoModal
      size="large"
      header={text.actionFor(name)}
      closeAriaLabel={adminMessages.closeModal}
      onDismiss={onDismiss}
      testId="history-modal"
    >
      <SpaceBetween size="m">
        <Box color="text-body-secondary">{text.description(name, user.email)}</Box>
        <Table
          variant="embedded"
          wrapLines
          ariaLabels={{ tableLabel: text.tableLabel }}
          columnDefinitions={columns(kind, clients)}
          items={events.items}
          trackBy="id"
          loading={events.isLoading}
          loadingText={text.loading}
          empty={<TableEmptyState error={events.error} onRetry={events.refresh} message={text.empty} />}
          pagination={<CursorPagination pages={events} />}
        />
      </SpaceBetween>
    </InfoModal>
  );
}
