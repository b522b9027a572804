import Box from '@cloudscape-design/components/box';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import { formatDateTime } from '@portal/shared';
import type { useCursorPages } from '../hooks/use-cursor-pages';
import { ChangeList, type ChangeLine } from './change-list';
import { CursorPagination } from './cursor-pagination';
import { TableEmptyState } from './table-empty-state';
import './audit-timeline.css';

/** One record of an audit trail as the timeline shows it. */
export interface TimelineEntry {
  readonly id: string;
  readonly occurredAt: string;
  /** What was done ('Aprobación', 'Usuario deshabilitado'…). */
  readonly action: string;
  readonly who: string;
  /** Below the name: e-mail, role, how they signed in. */
  readonly whoDetail: readonly string[];
  /** What the author wrote with it (a reason, a message), shown as plain text. */
  readonly note?: string | null;
  readonly lines: readonly ChangeLine[];
  /** The call it came from, as the caller was told (txId). */
  readonly call?: string;
}

type Pages = Pick<
  ReturnType<typeof useCursorPages>,
  'pageIndex' | 'pagesCount' | 'openEnd' | 'isLoading' | 'goToPage' | 'error' | 'refresh'
>;

/**
 * An audit trail as a timeline, one block per record: when and what, who (and how they signed in), the author's
 * words, and the before → after of each field. The same for an account's history and an invoice's Historial; one
 * column, so that it reads on a phone without scrolling sideways. Everything is rendered as text.
 */
export function AuditTimeline(props: {
  readonly label: string;
  readonly entries: readonly TimelineEntry[];
  readonly pages: Pages;
  readonly loadingText: string;
  readonly emptyText: string;
  readonly callText: (txId: string) => string;
  readonly testId?: string;
}) {
  const { pages } = props;
  return (
    <div data-testid={props.testId}>
      <SpaceBetween size="s">
        <Box float="right">
          <CursorPagination pages={pages} />
        </Box>
        {pages.isLoading ? (
          <Box textAlign="center" padding="m">
            <Spinner /> {props.loadingText}
          </Box>
        ) : props.entries.length === 0 ? (
          <TableEmptyState error={pages.error} onRetry={pages.refresh} message={props.emptyText} />
        ) : (
          <ol className="audit-timeline" aria-label={props.label}>
            {props.entries.map((entry) => (
              <li key={entry.id} className="audit-timeline__entry" data-testid="history-event">
                <SpaceBetween size="xxs">
                  <div>
                    <Box variant="span" fontWeight="bold">
                      <span data-testid="history-action">{entry.action}</span>
                    </Box>
                    {' · '}
                    <time dateTime={entry.occurredAt} data-testid="history-when">
                      {formatDateTime(entry.occurredAt, { zone: true })}
                    </time>
                  </div>
                  <div data-testid="history-who">
                    {entry.who}
                    {entry.whoDetail.length > 0 && (
                      <Box variant="small" color="text-body-secondary" display="block">
                        {entry.whoDetail.join(' · ')}
                      </Box>
                    )}
                  </div>
                  {entry.note && (
                    <Box variant="p" padding={{ vertical: 'n' }}>
                      <span className="audit-timeline__note">{entry.note}</span>
                    </Box>
                  )}
                  <ChangeList lines={entry.lines} />
                  {entry.call && (
                    <Box variant="small" color="text-body-secondary">
                      {props.callText(entry.call)}
                    </Box>
                  )}
                </SpaceBetween>
              </li>
            ))}
          </ol>
        )}
      </SpaceBetween>
    </div>
  );
}
