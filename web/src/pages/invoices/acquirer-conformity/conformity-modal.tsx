import { useState } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Modal from '@cloudscape-design/components/modal';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
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
import { apiCall, errorMessage } from '../../../api/client';
import { conformityMessages } from './messages';

const text = conformityMessages.modal;

const CAUSE_OPTIONS: SelectProps.Option[] = DISCONFORMITY_CAUSES.map((cause) => ({
  value: cause,
  label: DISCONFORMITY_CAUSE_LABELS[cause],
}));

/**
 * What staff answered on SUNAT's platform, registered in the portal: a conformity (an optional comment), or a
 * disconformity with its cause and reason (both required, as SUNAT's platform asks). Errors show inside the dialog.
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
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const missingCause = disconformity && cause === null;
  const missingReason = disconformity && reason.trim() === '';

  const register = async () => {
    setAttempted(true);
    setError(null);
    if (missingCause || missingReason) return;
    setBusy(true);
    try {
      props.onDone(
        await apiCall(routes.registerAcquirerConformity, {
          path: props.path,
          body: {
            decision,
            ...(disconformity && cause ? { cause } : {}),
            ...(reason.trim() ? { reason: reason.trim() } : {}),
          },
        }),
      );
    } catch (cause) {
      setError(errorMessage(cause));
      setBusy(false);
    }
  };

  return (
    <Modal
      visible
      header={text.header[decision]}
      closeAriaLabel={text.close}
      onDismiss={() => !busy && props.onDismiss()}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={props.onDismiss} disabled={busy}>
              {text.cancel}
            </Button>
            <Button
              variant="primary"
              loading={busy}
              onClick={() => void register()}
              data-testid="acquirer-conformity-confirm"
            >
              {text.confirm[decision]}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
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
        {error && <Alert type="error">{error}</Alert>}
      </SpaceBetween>
    </Modal>
  );
}
