import { useState } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import FormField from '@cloudscape-design/components/form-field';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { routes, type InvoiceDetail, type RoutePath } from '@portal/shared';
import { apiCall, errorMessage } from '../../../api/client';
import { detailMessages } from './messages';

/** The invoice's key in the paths of its routes. */
type InvoicePath = RoutePath<typeof routes.getInvoice>;

interface DecisionProps {
  readonly path: InvoicePath;
  readonly number: string;
  readonly onDone: (updated: InvoiceDetail) => void;
  readonly onDismiss: () => void;
}

/**
 * Spec §4: approving is definitive (a MIRO request to SAP) and notifies the supplier, so it asks
 * first. An error shows inside the dialog, where the user is, by the display rule of spec §8.
 */
export function ApproveModal({ path, number, onDone, onDismiss }: DecisionProps) {
  const text = detailMessages.approve;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const approve = async () => {
    setBusy(true);
    setError(null);
    try {
      onDone(await apiCall(routes.approveInvoice, { path }));
    } catch (cause) {
      setError(errorMessage(cause));
      setBusy(false);
    }
  };

  return (
    <Modal
      visible
      header={text.header}
      closeAriaLabel={detailMessages.close}
      onDismiss={() => !busy && onDismiss()}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss} disabled={busy}>
              {text.cancel}
            </Button>
            <Button variant="primary" loading={busy} onClick={() => void approve()} data-testid="approve-confirm">
              {text.confirm}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="s">
        <Box variant="p">{text.question(number)}</Box>
        <Box variant="p" color="text-body-secondary">
          {text.consequence}
        </Box>
        {error && <Alert type="error">{error}</Alert>}
      </SpaceBetween>
    </Modal>
  );
}

/**
 * Spec §2/§4/§5: the reason is required ('Por favor, ingrese el motivo de rechazo del comprobante.'),
 * and the reviewer may let the supplier send the same document again (query noRejection).
 */
export function RejectModal({ path, number, onDone, onDismiss }: DecisionProps) {
  const text = detailMessages.reject;
  const [reason, setReason] = useState('');
  const [allowRetry, setAllowRetry] = useState(false);
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const missingReason = reason.trim() === '';

  const reject = async () => {
    setAttempted(true);
    setError(null);
    if (missingReason) return;
    setBusy(true);
    try {
      onDone(
        await apiCall(routes.disapproveInvoice, {
          path,
          query: { noRejection: allowRetry ? 'true' : 'false' },
          body: { reason: reason.trim() },
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
      header={text.header}
      closeAriaLabel={detailMessages.close}
      onDismiss={() => !busy && onDismiss()}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss} disabled={busy}>
              {text.cancel}
            </Button>
            <Button variant="primary" loading={busy} onClick={() => void reject()} data-testid="reject-confirm">
              {text.confirm}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <Box variant="p">{text.intro(number)}</Box>
        <FormField label={text.reason} errorText={attempted && missingReason ? text.reasonRequired : undefined} stretch>
          <Textarea value={reason} rows={4} ariaRequired onChange={({ detail }) => setReason(detail.value)} />
        </FormField>
        <Checkbox checked={allowRetry} onChange={({ detail }) => setAllowRetry(detail.checked)}>
          {text.allowRetry}
        </Checkbox>
        {error && <Alert type="error">{error}</Alert>}
      </SpaceBetween>
    </Modal>
  );
}

/**
 * The RUC risk gate (issue 21): an administrator approves an invoice whose supplier SUNAT does not report ACTIVO
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
  const [reason, setReason] = useState('');
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const missingReason = reason.trim() === '';

  const approve = async () => {
    setAttempted(true);
    setError(null);
    if (missingReason) return;
    setBusy(true);
    try {
      onDone(await apiCall(routes.approveInvoiceDespiteRucRisk, { path, body: { reason: reason.trim() } }));
    } catch (cause) {
      setError(errorMessage(cause));
      setBusy(false);
    }
  };

  return (
    <Modal
      visible
      header={text.modalHeader}
      closeAriaLabel={detailMessages.close}
      onDismiss={() => !busy && onDismiss()}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss} disabled={busy}>
              {text.cancel}
            </Button>
            <Button variant="primary" loading={busy} onClick={() => void approve()} data-testid="ruc-override-confirm">
              {text.confirm}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <Box variant="p">{text.question(number, risk)}</Box>
        <Box variant="p" color="text-body-secondary">
          {text.consequence}
        </Box>
        <FormField label={text.reason} errorText={attempted && missingReason ? text.reasonRequired : undefined} stretch>
          <Textarea value={reason} rows={4} ariaRequired onChange={({ detail }) => setReason(detail.value)} />
        </FormField>
        {error && <Alert type="error">{error}</Alert>}
      </SpaceBetween>
    </Modal>
  );
}
