import Box from '@cloudscape-design/components/box';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { InvoiceDetail } from '@portal/shared';
import { formatDateTime } from './history-modal';
import { detailMessages } from './messages';

const text = detailMessages.sunat;

const LIMA_TIME = new Intl.DateTimeFormat('es-PE', {
  timeZone: 'America/Lima',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});
const LIMA_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Lima' });

/** hh:mm in Lima for a moment of today (Lima's), else dd/mm/yy hh:mm. */
function limaMoment(iso: string, now: Date): string {
  const at = new Date(iso);
  return LIMA_DAY.format(at) === LIMA_DAY.format(now) ? LIMA_TIME.format(at) : formatDateTime(iso);
}

/**
 * Under 'Estado Sunat' while SUNAT has not answered (certStatus PENDING): since when the invoice waits, whether
 * SUNAT failed to answer, when the portal asks again, and who asked for a new check; for staff, after a refusal,
 * that SUNAT may not know a document issued minutes ago.
 */
export function SunatWait({
  invoice,
  canRequest,
}: {
  invoice: Pick<InvoiceDetail, 'certStatus' | 'sunatCheck'>;
  canRequest: boolean;
}) {
  const now = new Date();
  if (invoice.certStatus === 'INVALID') {
    return canRequest ? <Box variant="small">{text.invalidHint}</Box> : null;
  }
  if (invoice.certStatus !== 'PENDING') return null;
  const check = invoice.sunatCheck;
  if (!check) return <Box variant="small">{text.waiting}</Box>;
  const next = check.nextCheckAt && check.nextCheckAt > now.toISOString() ? check.nextCheckAt : null;
  return (
    <SpaceBetween size="xxs">
      <Box variant="small">{text.waitingSince(formatDateTime(check.pendingSince))}</Box>
      {check.lastFailureAt && <Box variant="small">{text.unavailable(limaMoment(check.lastFailureAt, now))}</Box>}
      <Box variant="small">{next ? text.nextCheck(limaMoment(next, now)) : text.nextCheckSoon}</Box>
      {check.requestedBy && check.requestedAt && (
        <Box variant="small">{text.requestedBy(check.requestedBy, formatDateTime(check.requestedAt))}</Box>
      )}
    </SpaceBetween>
  );
}
