import { useState } from 'react';
import Box from '@cloudscape-design/components/box';
import FormField from '@cloudscape-design/components/form-field';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import Textarea from '@cloudscape-design/components/textarea';
import {
  DISCONFORMITY_CAUSES,
  DISCONFORMITY_CAUSE_LABELS,
  routes,
  type AcquirerDecision,
  type DisconformityCause,
  type InvoiceDetail,
  type RoutePath,
} from '@portal/shared';
import { apiCall } from '../../../api/client';
import { DecisionModal } from '../../../components/decision-modal';
import { conformityMessages } from './messages';

const text = conformityMessages.modal;

const CAUSE_OPTIONS: SelectProps.Option[] = DISCONFORMITY_CAUSES.map((cause) => ({
  value: cause,
  label: DISCONFORMITY_CAUSE_LABELS[cause],
}));

/**
 * What staff answered on SUNAT's platform, registered in the portal: a conformity (an optional comment), or a
 * disconformity with its cause and reason (both required, as SUNAT's platform asks).
 */
export function ConformityModal(props: {
  readonly decision: AcquirerDecision;
  readonly path: RoutePath<typeof routes.getInvoice>;
  readonly number: string;
  readonly onDone: (updated: InvoiceDetail) => void;
  readonly onDismiss: () => void;
}) {
  const { decision } = props;
  const disconformity = decision === 'DISCONFORMITY';
  const [cause, setCause] = useState<DisconformityCause | null>(null);
  const [reason, setReason] = useState('');
  const missingCause = disconformity && cause === null;
  const missingReason = disconformity && reason.trim() === '';

  return (
    <DecisionModal
      header={text.header[decision]}
      confirmLabel={text.confirm[decision]}
      confirmTestId="acquirer-conformity-confirm"
      invalid={missingCause || missingReason}
      onConfirm={async () =>
        props.onDone(
          await apiCall(routes.registerAcquirerConformity, {
            path: props.path,
            body: {
              decision,
              ...(disconformity && cause ? { cause } : {}),
              ...(reason.trim() ? { reason: reason.trim() } : {}),
            },
          }),
        )
      }
      onDismiss={props.onDismiss}
    >
      {({ attempted }) => (
        <>
          <Box variant="p">{text.intro(props.number)}</Box>
          <Box variant="p" color="text-body-secondary">
            {disconformity ? text.disconformityNote : text.conformityNote}
          </Box>
          {disconformity && (
            <FormField label={text.cause} errorText={attempted && missingCause ? text.causeRequired : undefined}>
              <Select
                options={CAUSE_OPTIONS}
                selectedOption={CAUSE_OPTIONS.find((option) => option.value === cause) ?? null}
                placeholder={text.causePlaceholder}
                onChange={({ detail }) => setCause((detail.selectedOption.value as DisconformityCause) ?? null)}
              />
            </FormField>
          )}
          <FormField
            label={
              disconformity ? (
                text.reason
              ) : (
                <span>
                  {text.comment} <i>- {text.optional}</i>
                </span>
              )
            }
            errorText={attempted && missingReason ? text.reasonRequired : undefined}
            stretch
          >
            <Textarea
              value={reason}
              rows={3}
              ariaRequired={disconformity}
              onChange={({ detail }) => setReason(detail.value)}
            />
          </FormField>
        </>
      )}
    </DecisionModal>
  );
}
