import { useState } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
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
  shownConformityDeadline,
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
 * The sidebar's Ley 29623 section, collapsed below the invoice (its summary says what a person came for): where the
 * clock stands, its one deadline (shownConformityDeadline), from when it counts and why, what was answered, and for
 * staff the registration of what they answered on SUNAT's platform (which the section says is where the legal act
 * happens). It speaks to the party it concerns: the company's duty to staff, the client's answer to a supplier. A
 * rejected invoice shows no countdown. Shown for facturas and recibos por honorarios; one without a clock says why.
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
        <ExpandableSection headerText={text.title}>
          <Box variant="small" color="text-body-secondary">
            {text.notApplicable(scope.applies ? text.notTracked : CONFORMITY_SCOPE_REASON_TEXTS[scope.reason])}
          </Box>
        </ExpandableSection>
      </div>
    );
  }

  const staff = props.level !== undefined && routes.registerAcquirerConformity.roles.includes(props.level as never);
  const party = staff ? 'staff' : 'supplier';
  const rejected = invoice.status === 'REJECTED';
  const answerable = Boolean(conformity.answerableUntil);
  const decisions: AcquirerDecision[] =
    !staff || !answerable ? [] : conformity.state === 'OPEN' ? ['CONFORMITY', 'DISCONFORMITY'] : ['CONFORMITY'];
  const shown = shownConformityDeadline(conformity);
  const countedFrom =
    shown.basis === 'ISSUE'
      ? text.countedFromIssue(formatDate(conformity.countedFrom), formatDate(invoice.issuedAt))
      : text.countedFromReception(formatDate(conformity.countedFrom));

  return (
    <div data-testid="acquirer-conformity-section" data-state={conformity.state}>
      <ExpandableSection headerText={text.title}>
        <SpaceBetween size="s">
          <Box variant="p">
            {text.where[party]} {text.period[party](CONFORMITY_PERIOD_DAYS)}
          </Box>
          <KeyValuePairs
            columns={1}
            items={[
              // A rejected invoice's clock runs on at SUNAT, but no countdown shows on it.
              ...(rejected && conformity.state === 'OPEN'
                ? []
                : [
                    {
                      label: text.state,
                      value: <ConformityStatus conformity={conformity} testId="acquirer-conformity-status" />,
                    },
                  ]),
              {
                label: text.deadline,
                value: (
                  <span data-testid="acquirer-conformity-deadline" data-deadline={shown.date}>
                    {text.deadlineValue(formatDate(shown.date), shown.basis)}
                  </span>
                ),
              },
              {
                label: text.countedFrom,
                value: <span data-testid="acquirer-conformity-basis">{countedFrom}</span>,
              },
            ]}
          />
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
          {rejected && conformity.state === 'OPEN' && (
            <Box variant="small" color="text-body-secondary">
              {text.rejectedNote}
            </Box>
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
      </ExpandableSection>
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
