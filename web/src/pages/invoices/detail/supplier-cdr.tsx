import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { CDR_VERDICT_LABELS, formatDate, type SupplierCdr } from '@portal/shared';
import { detailMessages } from './messages';

const text = detailMessages.cdr;

/**
 * The CDR the supplier sent with the document, beside 'Estado Sunat': SUNAT's answer as the supplier
 * holds it, with SUNAT's observations. Evidence only, and said to be; when it contradicts SUNAT's check or the
 * invoice, staff see why.
 */
export function SupplierCdrEvidence({ cdr, staff }: { cdr: SupplierCdr; staff: boolean }) {
  const date = formatDate(cdr.responseDate);
  return (
    <SpaceBetween size="xxs">
      <span>
        {cdr.verdict
          ? text.evidence(CDR_VERDICT_LABELS[cdr.verdict], cdr.responseCode, date)
          : text.noVerdict(cdr.responseCode, date)}
      </span>
      <Box variant="small">{cdr.description}</Box>
      {cdr.notes.length > 0 && (
        <Box variant="small">
          {text.observations(cdr.notes.length)}
          <ul>
            {cdr.notes.map((note, index) => (
              <li key={index}>{note.code ? `${note.code} - ${note.message}` : note.message}</li>
            ))}
          </ul>
        </Box>
      )}
      <Box variant="small" color="text-body-secondary">
        {text.notice}
      </Box>
      {staff && cdr.contradiction && (
        <div data-testid="invoice-detail-cdr-contradiction">
          <Alert type="warning" header={text.contradictionHeader}>
            <ul>
              {cdr.contradiction.reasons.map((reason) => (
                <li key={reason.kind}>{reason.message}</li>
              ))}
            </ul>
          </Alert>
        </div>
      )}
    </SpaceBetween>
  );
}
