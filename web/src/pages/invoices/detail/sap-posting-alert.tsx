import Alert from '@cloudscape-design/components/alert';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { SapPosting } from '@portal/shared';
import { detailMessages } from './messages';

const text = detailMessages.sapPosting.alert;

const LIMA_TIME = new Intl.DateTimeFormat('es-PE', {
  timeZone: 'America/Lima',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

/**
 * What the people following an approved invoice must know at once about its SAP posting, at the top of the
 * sidebar: from the first failed attempt (or once it is late), what happens next — the next attempt's time in
 * Lima, the attempts left, and that an administrator can retry after the last one; once it failed, who can act.
 * Nothing while it is queued, on its first attempt, or posted.
 */
export function SapPostingAlert({ posting, canRetry }: { posting: SapPosting; canRetry: boolean }) {
  const reason = posting.reason ? <div>{text.reason(posting.reason)}</div> : null;
  if (posting.state === 'FAILED') {
    return (
      <div data-testid="invoice-detail-sap-alert">
        <Alert type="error" header={text.failedHeader}>
          <SpaceBetween size="xxs">
            <div>{text.failed(posting.attempts)}</div>
            {reason}
            <div>{canRetry ? text.failedAdmin : text.failedOthers}</div>
          </SpaceBetween>
        </Alert>
      </div>
    );
  }
  if (posting.state === 'RETRYING') {
    const next = posting.nextAttemptAt ? LIMA_TIME.format(new Date(posting.nextAttemptAt)) : null;
    return (
      <div data-testid="invoice-detail-sap-alert">
        <Alert type="warning" header={text.retryingHeader}>
          <SpaceBetween size="xxs">
            <div>{text.retrying(posting.attempts, posting.maxAttempts, next)}</div>
            {reason}
          </SpaceBetween>
        </Alert>
      </div>
    );
  }
  const retryUnderWay = posting.state === 'SENDING' && posting.attempts > 1;
  if (posting.state === 'LATE' || posting.late || retryUnderWay) {
    return (
      <div data-testid="invoice-detail-sap-alert">
        <Alert type="warning" header={retryUnderWay ? text.retryingHeader : text.lateHeader}>
          {retryUnderWay ? text.sendingAgain(posting.attempts, posting.maxAttempts) : text.late}
        </Alert>
      </div>
    );
  }
  return null;
}
