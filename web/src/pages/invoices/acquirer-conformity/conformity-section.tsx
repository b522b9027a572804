import { useState } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';
import {
  CONFORMITY_DOCUMENT_TYPES,
  CONFORMITY_PERIOD_DAYS,
  CONFORMITY_SCOPE_REASON_TEXTS,
  DISCONFORMITY_CAUSE_LABELS,
  conformityScopeOf,
  formatDate,
  formatDateTime,
  routes,
  type AcquirerDecision,
  type InvoiceDetail,
  type Level,
  type RoutePath,
} from '@portal/shared';
import { ConformityModal } from './conformity-modal';
import { ConformityStatus } from './conformity-status';
import { conformityMessages } from './messages';

const text = conformityMessages.section;

/**
 * The sidebar's Ley 29623 section: where the clock stands, from when it counts and why, what was answered, and for
 * staff the registration of what they answered on SUNAT's platform (which the section says is where the legal act
 * happens). Shown for facturas and recibos por honorarios; one without a clock says why.
 */
export function AcquirerConformitySection(props: {
  readonly invoice: InvoiceDetail;
  readonly level: Level | undefined;
  readonly path: RoutePath<typeof routes.getInvoice>;
  readonly number: string;
  readonly onRegistered: (updated: InvoiceDetail, decision: AcquirerDecision) => void;
}) {
  const { invoice } = props;
  const [decision, setDecision] = useState<AcquirerDecision | null>(null);
  const conformity = invoice.acquirerConformity;
  if (!conformity) {
    if (!CONFORMITY_DOCUMENT_TYPES.includes(invoice.type)) return null;
    const scope = conformityScopeOf(invoice);
    return (
      <div data-testid="acquirer-conformity-section" data-state="NONE">
        <SpaceBetween size="xs">
          <Header variant="h3">{text.title}</Header>
          <Box variant="small" color="text-body-secondary">
            {text.notApplicable(scope.applies ? text.notTracked : CONFORMITY_SCOPE_REASON_TEXTS[scope.reason])}
          </Box>
        </SpaceBetween>
      </div>
    );
  }

  const staff = props.level !== undefined && routes.registerAcquirerConformity.roles.includes(props.level as never);
  const answerable = Boolean(conformity.answerableUntil);
  const decisions: AcquirerDecision[] =
    !staff || !answerable ? [] : conformity.state === 'OPEN' ? ['CONFORMITY', 'DISCONFORMITY'] : ['CONFORMITY'];

  return (
    <div data-testid="acquirer-conformity-section" data-state={conformity.state}>
      <SpaceBetween size="s">
        <Header variant="h3">{text.title}</Header>
        <Box variant="p">
          {text.where} {text.period(CONFORMITY_PERIOD_DAYS)}
        </Box>
        <KeyValuePairs
          columns={1}
          items={[
            {
              label: text.state,
              value: <ConformityStatus conformity={conformity} testId="acquirer-conformity-status" />,
            },
            { label: text.deadline, value: formatDate(conformity.deadline) },
            {
              label: text.countedFrom,
              value: (
                <span data-testid="acquirer-conformity-basis">
                  {text.countedFromReception(formatDate(conformity.countedFrom))}
                </span>
              ),
            },
          ]}
        />
        {conformity.latestLegalDeadline && conformity.state === 'OPEN' && (
          <div data-testid="acquirer-conformity-legal-deadline">
            <Alert type="warning">{text.latestLegalDeadline(formatDate(conformity.latestLegalDeadline))}</Alert>
          </div>
        )}
        {conformity.answers.map((answer) => (
          <Box key={answer.at} variant="small" data-testid="acquirer-conformity-answer">
            {text.answer[answer.decision](formatDateTime(answer.at, { zone: true }), answer.by)}
            {answer.cause ? ` ${text.cause(DISCONFORMITY_CAUSE_LABELS[answer.cause])}` : ''}
            {answer.reason ? ` ${text.reason(answer.reason)}` : ''}
          </Box>
        ))}
        {conformity.state === 'PRESUMED_CONFORMITY' && conformity.presumedAt && (
          <Box variant="small">{text.presumed(formatDate(conformity.presumedAt))}</Box>
        )}
        {conformity.state === 'DISCONFORMITY' && conformity.answerableUntil && (
          <Box variant="small">{text.answerUntil(formatDate(conformity.answerableUntil))}</Box>
        )}
        {staff && conformity.state === 'OPEN' && (
          <Box variant="small" color="text-body-secondary">
            {text.rejectionIsNotDisconformity}
          </Box>
        )}
        {decisions.length > 0 && (
          <SpaceBetween direction="horizontal" size="xs">
            {decisions.map((option) => (
              <Button key={option} onClick={() => setDecision(option)}>
                {option === 'CONFORMITY' ? text.registerConformity : text.registerDisconformity}
              </Button>
            ))}
          </SpaceBetween>
        )}
      </SpaceBetween>
      {decision && (
        <ConformityModal
          decision={decision}
          path={props.path}
          number={props.number}
          onDismiss={() => setDecision(null)}
          onDone={(updated) => {
            setDecision(null);
            props.onRegistered(updated, decision);
          }}
        />
      )}
    </div>
  );
}
