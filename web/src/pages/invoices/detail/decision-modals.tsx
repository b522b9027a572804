import { useState, type ReactNode } from 'react';
import Box from '@cloudscape-design/components/box';
import Checkbox from '@cloudscape-design/components/checkbox';
import FormField from '@cloudscape-design/components/form-field';
import Textarea from '@cloudscape-design/components/textarea';
import { routes, type InvoiceDetail, type RoutePath } from '@portal/shared';
import { apiCall } from '../../../api/client';
import { DecisionModal } from '../../../components/decision-modal';
import { detailMessages } from './messages';

/** The invoice's key in the paths of its routes. */
type InvoicePath = RoutePath<typeof routes.getInvoice>;

interface DecisionProps {
  readonly path: InvoicePath;
  readonly number: string;
  readonly onDone: (updated: InvoiceDetail) => void;
  readonly onDismiss: () => void;
}

/** A required reason, with its error once the user tried to confirm without one. */
function ReasonField(props: {
  label: string;
  requiredText: string;
  value: string;
  attempted: boolean;
  onChange: (value: string) => void;
}) {
  const missing = props.value.trim() === '';
  return (
    <FormField label={props.label} errorText={props.attempted && missing ? props.requiredText : undefined} stretch>
      <Textarea value={props.value} rows={4} ariaRequired onChange={({ detail }) => props.onChange(detail.value)} />
    </FormField>
  );
}

/**
 * Spec §4: approving is definitive (a MIRO request to SAP) and notifies the supplier, so it asks
 * first.
 */
export function ApproveModal({ path, number, onDone, onDismiss }: DecisionProps) {
  const text = detailMessages.approve;
  return (
    <DecisionModal
      header={text.header}
      confirmLabel={text.confirm}
      confirmTestId="approve-confirm"
      onConfirm={async () => onDone(await apiCall(routes.approveInvoice, { path }))}
      onDismiss={onDismiss}
    >
      <Box variant="p">{text.question(number)}</Box>
      <Box variant="p" color="text-body-secondary">
        {text.consequence}
      </Box>
    </DecisionModal>
  );
}

/**
 * A decision that needs a reason: `before` and `after` the required field, no confirming without it, and
 * `onConfirm` gets it trimmed.
 */
function ReasonModal(props: {
  header: string;
  /** The confirm button's text, the field's label and the error while it is empty. */
  copy: { readonly confirm: string; readonly reason: string; readonly reasonRequired: string };
  confirmTestId: string;
  before: ReactNode;
  after?: ReactNode;
  onConfirm: (reason: string) => Promise<unknown>;
  onDismiss: () => void;
}) {
  const [reason, setReason] = useState('');
  return (
    <DecisionModal
      header={props.header}
      confirmLabel={props.copy.confirm}
      confirmTestId={props.confirmTestId}
      invalid={reason.trim() === ''}
      onConfirm={() => props.onConfirm(reason.trim())}
      onDismiss={props.onDismiss}
    >
      {({ attempted }) => (
        <>
          {props.before}
          <ReasonField
            label={props.copy.reason}
            requiredText={props.copy.reasonRequired}
            value={reason}
            attempted={attempted}
            onChange={setReason}
          />
          {props.after}
        </>
      )}
    </DecisionModal>
  );
}

/**
 * Spec §2/§4/§5: the reason is required ('Por favor, ingrese el motivo de rechazo del comprobante.'),
 * and the reviewer may let the supplier send the same document again (query noRejection).
 */
export function RejectModal({ path, number, onDone, onDismiss }: DecisionProps) {
  const text = detailMessages.reject;
  const [allowRetry, setAllowRetry] = useState(false);
  return (
    <ReasonModal
      header={text.header}
      copy={text}
      confirmTestId="reject-confirm"
      before={<Box variant="p">{text.intro(number)}</Box>}
      after={
        <Checkbox checked={allowRetry} onChange={({ detail }) => setAllowRetry(detail.checked)}>
          {text.allowRetry}
        </Checkbox>
      }
      onConfirm={async (reason) =>
        onDone(
          await apiCall(routes.disapproveInvoice, {
            path,
            query: { noRejection: allowRetry ? 'true' : 'false' },
            body: { reason },
          }),
        )
      }
      onDismiss={onDismiss}
    />
  );
}

/**
 * The RUC risk gate: an administrator approves an invoice whose supplier SUNAT does not report ACTIVO
 * and HABIDO, writing why; the reason stays in the invoice's history.
 */
export function ApproveDespiteRucRiskModal({
  path,
  number,
  risk,
  onDone,
  onDismiss,
}: DecisionProps & { risk: string }) {
  const text = detailMessages.rucRisk;
  return (
    <ReasonModal
      header={text.modalHeader}
      copy={text}
      confirmTestId="ruc-override-confirm"
      before={
        <>
          <Box variant="p">{text.question(number, risk)}</Box>
          <Box variant="p" color="text-body-secondary">
            {text.consequence}
          </Box>
        </>
      }
      onConfirm={async (reason) =>
        onDone(await apiCall(routes.approveInvoiceDespiteRucRisk, { path, body: { reason } }))
      }
      onDismiss={onDismiss}
    />
  );
}
