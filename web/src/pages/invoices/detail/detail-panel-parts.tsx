import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import type { routes } from '@portal/shared';
import { rucRiskOf, rucRiskText, type InvoiceDetail, type RoutePath } from '@portal/shared';
import { errorMessage } from '../../../api/client';
import { invoiceNumber } from '../invoice-number';
import { ApproveDespiteRucRiskModal, ApproveModal, RejectModal } from './decision-modals';
import { HistoryModal } from './history-modal';
import { detailMessages as text } from './messages';
import type { reviewAccess } from './review-access';

/** What the invoice detail sidebar opens: a dialog at a time. */
export type Dialog = 'approve' | 'approveDespiteRucRisk' | 'reject' | 'history' | null;

/** The sidebar while the invoice loads, or why it did not, with 'Reintentar'. */
export function DetailLoading({
  isLoading,
  error,
  onRetry,
  onClose,
}: {
  isLoading: boolean;
  error: unknown;
  onRetry: () => void;
  onClose: () => void;
}) {
  return (
    <Box padding={{ horizontal: 'l', vertical: 'm' }}>
      <div data-testid="invoice-detail-panel" aria-busy={isLoading}>
        {error && !isLoading ? (
          <SpaceBetween size="m">
            <Alert type="error" header={text.loadFailed}>
              {errorMessage(error)}
            </Alert>
            <SpaceBetween direction="horizontal" size="xs">
              <Button onClick={onRetry}>{text.retry}</Button>
              <Button variant="link" onClick={onClose}>
                {text.close}
              </Button>
            </SpaceBetween>
          </SpaceBetween>
        ) : (
          <StatusIndicator type="loading">{text.loading}</StatusIndicator>
        )}
      </div>
    </Box>
  );
}

/** What the person may do with the invoice now, and its history. */
export function DetailActions({
  invoice,
  access,
  editing,
  onEdit,
  onDialog,
  requestingSunat,
  onRequestSunat,
  retrying,
  onRetrySap,
}: {
  invoice: InvoiceDetail;
  access: ReturnType<typeof reviewAccess>;
  editing: boolean;
  onEdit: () => void;
  onDialog: (dialog: Dialog) => void;
  requestingSunat: boolean;
  onRequestSunat: () => void;
  retrying: boolean;
  onRetrySap: () => void;
}) {
  return (
    <SpaceBetween direction="horizontal" size="xs">
      {access.canEdit && !editing && (
        <Button onClick={onEdit} iconName="edit">
          {invoice.status === 'PENDING' ? text.actions.edit : text.actions.editAgain}
        </Button>
      )}
      {access.canApprove && !editing && (
        <Button variant="primary" onClick={() => onDialog('approve')}>
          {text.actions.approve}
        </Button>
      )}
      {access.canApproveDespiteRucRisk && !editing && (
        <Button variant="primary" onClick={() => onDialog('approveDespiteRucRisk')}>
          {text.rucRisk.approve}
        </Button>
      )}
      {access.canReject && !editing && <Button onClick={() => onDialog('reject')}>{text.actions.reject}</Button>}
      {access.canRequestSunatValidation && !editing && (
        <Button iconName="refresh" loading={requestingSunat} onClick={onRequestSunat}>
          {text.actions.requestSunat}
        </Button>
      )}
      {access.canRetrySapPosting && (
        <Button iconName="refresh" loading={retrying} onClick={onRetrySap}>
          {text.actions.retrySap}
        </Button>
      )}
      <Button onClick={() => onDialog('history')} iconName="status-info">
        {text.actions.history}
      </Button>
    </SpaceBetween>
  );
}

/** What stands in the review's way: the RUC risk, an original not in the portal, why the data cannot change. */
export function DetailAlerts({
  invoice,
  risk,
  editBlockedReason,
}: {
  invoice: InvoiceDetail;
  risk: ReturnType<typeof rucRiskOf>;
  editBlockedReason: string | null | undefined;
}) {
  return (
    <>
      {risk && !invoice.approved && (
        <div data-testid="invoice-detail-ruc-risk">
          <Alert type="warning" header={text.rucRisk.header}>
            {text.rucRisk.body(rucRiskText(risk))}
          </Alert>
        </div>
      )}

      {invoice.originalInPortal === false && invoice.billingReference && !invoice.original && (
        <div data-testid="invoice-detail-original-not-in-portal">
          <Alert type="info" header={text.notes.notInPortalHeader}>
            {text.notes.notInPortalAlert(invoice.billingReference.id)}
          </Alert>
        </div>
      )}

      {editBlockedReason && (
        <div data-testid="invoice-detail-not-editable">
          <Alert type="info">{editBlockedReason}</Alert>
        </div>
      )}
    </>
  );
}

/** The dialog open, if any: approving (despite the RUC risk), rejecting, or the history. */
export function DetailDialogs({
  dialog,
  path,
  invoice,
  onDismiss,
  onApproved,
  onRejected,
}: {
  dialog: Dialog;
  path: RoutePath<typeof routes.getInvoice>;
  invoice: InvoiceDetail;
  onDismiss: () => void;
  onApproved: (updated: InvoiceDetail) => void;
  onRejected: (updated: InvoiceDetail) => void;
}) {
  const number = invoiceNumber(invoice);
  const risk = rucRiskOf(invoice.sunat);
  return (
    <>
      {dialog === 'approve' && <ApproveModal path={path} number={number} onDismiss={onDismiss} onDone={onApproved} />}
      {dialog === 'approveDespiteRucRisk' && risk && (
        <ApproveDespiteRucRiskModal
          path={path}
          number={number}
          risk={rucRiskText(risk)}
          onDismiss={onDismiss}
          onDone={onApproved}
        />
      )}
      {dialog === 'reject' && <RejectModal path={path} number={number} onDismiss={onDismiss} onDone={onRejected} />}
      {dialog === 'history' && (
        <HistoryModal
          path={path}
          number={number}
          currency={invoice.currency}
          history={invoice.statusHistory}
          onDismiss={onDismiss}
        />
      )}
    </>
  );
}
