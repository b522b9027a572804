import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import { formatDate, shownConformityDeadline, type AcquirerConformity } from '@portal/shared';
import { conformityMessages as text } from './messages';

/**
 * How a clock reads: a running one by its one deadline (SUNAT's latest for a late document, shownConformityDeadline)
 * and days left, an ended one by its state and date.
 */
export function conformityText(conformity: AcquirerConformity): string {
  if (conformity.state === 'OPEN') {
    const shown = shownConformityDeadline(conformity);
    return text.deadline(formatDate(shown.date), shown.daysLeft);
  }
  const label = text.state[conformity.state];
  const date = conformity.state === 'PRESUMED_CONFORMITY' ? conformity.presumedAt : conformity.answers.at(-1)?.at;
  return text.stateOn(label, formatDate(date));
}

function indicator(conformity: AcquirerConformity): StatusIndicatorProps.Type {
  switch (conformity.state) {
    case 'OPEN': {
      const days = shownConformityDeadline(conformity).daysLeft ?? 0;
      return days < 0 ? 'error' : days <= 2 ? 'warning' : 'pending';
    }
    case 'CONFORMITY':
      return 'success';
    case 'DISCONFORMITY':
      return 'error';
    case 'PRESUMED_CONFORMITY':
      return 'info';
  }
}

/** The clock's status as the list and the sidebar show it, with what tests and people need to find it. */
export function ConformityStatus({ conformity, testId }: { conformity: AcquirerConformity; testId: string }) {
  const shown = shownConformityDeadline(conformity);
  return (
    <span
      data-testid={testId}
      data-state={conformity.state}
      data-deadline={shown.date}
      data-days-left={conformity.state === 'OPEN' ? shown.daysLeft : undefined}
    >
      <StatusIndicator type={indicator(conformity)}>{conformityText(conformity)}</StatusIndicator>
    </span>
  );
}
