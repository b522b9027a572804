import Box from '@cloudscape-design/components/box';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { formatDateTime, formatTime, limaDate, type InvoiceDetail } from '@portal/shared';
import { detailMessages } from './messages';

const text = detailMessages.sunat;

/** hh:mm in Lima for a moment of today (Lima's), else dd/mm/yy hh:mm; said to be Lima's time. */
function limaMoment(iso: string, now: Date): string {
  return limaDate(iso) === limaDate(now) ? formatTime(iso, { zone: true }) : formatDateTime(iso, { zone: true });
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
      <Box variant="small">{text.waitingSince(formatDateTime(check.pendingSince, { zone: true }))}</Box>
      {check.lastFailureAt && <Box variant="small">{text.unavailable(limaMoment(check.lastFailureAt, now))}</Box>}
      <Box variant="small">{next ? text.nextCheck(limaMoment(next, now)) : text.nextCheckSoon}</Box>
      {check.requestedBy && check.requestedAt && (
        <Box variant="small">
          {text.requestedBy(check.requestedBy, formatDateTime(check.requestedAt, { zone: true }))}
        </Box>
      )}
    </SpaceBetween>
  );
}
