import Box from '@cloudscape-design/components/box';
import SpaceBetween from '@cloudscape-design/components/space-between';
import {
  AUDIT_ACTION_LABELS,
  LEVEL_LABELS,
  USER_STATUS_LABELS,
  parseTaxIds,
  routes,
  type AuditEvent,
  type AuditValues,
  type Client,
} from '@portal/shared';
import { useClients } from '../../hooks/use-clients';
import { InfoModal } from '../../components/info-modal';
import { AuditTimeline, type TimelineEntry } from '../../components/audit-timeline';
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
function entryOf(event: AuditEvent, kind: HistoryKind, clients: Client[]): TimelineEntry {
  const fields = [...new Set([...Object.keys(event.before ?? {}), ...Object.keys(event.after ?? {})])];
  return {
    id: event.id,
    occurredAt: event.occurredAt,
    action: AUDIT_ACTION_LABELS[event.action],
    who: event.actor.email,
    whoDetail: [LEVEL_LABELS.ADMIN],
    lines: fields.map((field) => ({
      label: fieldLabel(field, kind),
      kind: 'value',
      before: event.before === null ? null : describeValue(field, event.before[field], kind, clients),
      after: describeValue(field, event.after?.[field], kind, clients),
    })),
    call: event.txId,
  };
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
        <AuditTimeline
          label={text.tableLabel}
          entries={events.items.map((event) => entryOf(event, kind, clients))}
          pages={events}
          loadingText={text.loading}
          emptyText={text.empty}
          callText={text.call}
        />
      </SpaceBetween>
    </InfoModal>
  );
}
