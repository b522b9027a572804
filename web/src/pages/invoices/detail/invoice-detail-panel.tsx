import { useMemo, useRef, useState, type RefObject } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { ERROR_MESSAGES, routes, rucRiskOf, toInvoiceParams, type InvoiceDetail, type RoutePath } from '@portal/shared';
import { apiCall } from '../../../api/client';
import { useApi } from '../../../api/use-api';
import { useFeedback } from '../../../feedback/feedback';
import type { InvoiceKey } from '../../../layout/header/invoice-links';
import { useCurrentUser } from '../../../session/use-current-user';
import { AcquirerConformitySection } from '../acquirer-conformity/conformity-section';
import { conformityMessages } from '../acquirer-conformity/messages';
import { invoiceNumber } from '../invoice-number';
import { InvoiceEssentials } from './invoice-essentials';
import { InvoiceSummary } from './invoice-summary';
import { MessagesSection } from './messages-section';
import { detailMessages as text } from './messages';
import { documentTitle, reviewAccess } from './review-access';
import { ReviewForm } from './review-form';
import { SapPostingAlert } from './sap-posting-alert';
import { DetailActions, DetailAlerts, DetailDialogs, DetailLoading, type Dialog } from './detail-panel-parts';

export interface InvoiceDetailPanelProps {
  /** Which invoice the sidebar shows (spec §2: GET /suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}). */
  readonly invoice: InvoiceKey;
  /** Closes the sidebar. */
  readonly onClose: () => void;
  /** Called after a change (update, approve, reject) so that the list refreshes. */
  readonly onChanged: () => void;
  /** Opens another invoice's detail in its place: a note's original, an original's note. */
  readonly onOpenInvoice?: (key: InvoiceKey) => void;
}

/** While SAP has not answered an approval with its MIRO document, the sidebar asks again this often. */
const MIRO_REFRESH_MS = 3000;
/** While SUNAT has not answered (certStatus PENDING), the sidebar asks again this often. */
const SUNAT_REFRESH_MS = 5000;

/**
 * Approved, and the SAP posting is still under way (neither posted nor failed). Only staff follow it: a supplier's
 * answer has no SAP posting (it is staff-only), and its invoice moves on by its status.
 */
const awaitingMiro = (invoice: InvoiceDetail | undefined, staff: boolean) =>
  !staff
    ? false
    : invoice?.sapPosting
      ? invoice.sapPosting.state !== 'POSTED' && invoice.sapPosting.state !== 'FAILED'
      : Boolean(invoice?.approved && !invoice.sapDocument && !invoice.statusMessage);

/**
 * The invoice detail/edit sidebar (spec §2, §4, §5): what the invoice is, its review data and files;
 * for reviewers, completing it, approving and rejecting; for everyone, its status history.
 */
export function InvoiceDetailPanel(props: InvoiceDetailPanelProps) {
  const { supplierId, type, id } = props.invoice;
  // Another invoice opened in the same panel starts afresh: no form or dialog of the previous one.
  return <DetailPanel key={`${supplierId}#${type}#${id}`} {...props} />;
}

/** The sidebar of an address that names no invoice (an invoice type that does not exist): the API's 404 text. */
export function InvoiceNotFoundPanel({ onClose }: { onClose: () => void }) {
  return (
    <Box padding={{ horizontal: 'l', vertical: 'm' }}>
      <div data-testid="invoice-detail-panel">
        <SpaceBetween size="m">
          <Alert type="error" header={text.loadFailed}>
            {ERROR_MESSAGES.ERROR_INVOICE_NOT_FOUND}
          </Alert>
          <Box>
            <Button variant="link" onClick={onClose}>
              {text.close}
            </Button>
          </Box>
        </SpaceBetween>
      </div>
    </Box>
  );
}

function DetailPanel({ invoice: key, onClose, onChanged, onOpenInvoice }: InvoiceDetailPanelProps) {
  const { user } = useCurrentUser();
  const [editing, setEditing] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const headingRef = useRef<HTMLDivElement>(null);
  const path = useMemo(
    () => toInvoiceParams({ supplierId: key.supplierId, type: key.type, id: key.id }),
    [key.supplierId, key.type, key.id],
  );
  const detail = useApi(
    routes.getInvoice,
    { path },
    {
      // Only while something is under way: stops once posted or failed, and once SUNAT answered.
      refreshInterval: (latest) =>
        awaitingMiro(latest, Boolean(user && user.level !== 'SUPPLIER'))
          ? MIRO_REFRESH_MS
          : latest?.certStatus === 'PENDING'
            ? SUNAT_REFRESH_MS
            : 0,
    },
  );

  const { changed, saved, decided, approved, requestSunat, requestingSunat, retrySapPosting, retrying } =
    useDetailChanges({ path, detail, onChanged, onClose, setEditing, setDialog, headingRef });

  if (!detail.data) {
    return (
      <DetailLoading
        isLoading={detail.isLoading}
        error={detail.error}
        onRetry={() => void detail.mutate()}
        onClose={onClose}
      />
    );
  }

  const invoice = detail.data;
  const number = invoiceNumber(invoice);
  const access = reviewAccess(invoice, user?.level);
  const risk = rucRiskOf(invoice.sunat);
  const staff = user?.level !== undefined && user.level !== 'SUPPLIER';

  return (
    <Box padding={{ horizontal: 'l', vertical: 'm' }}>
      <div data-testid="invoice-detail-panel" data-invoice-id={invoice.id} data-status={invoice.status}>
        <SpaceBetween size="l">
          <div ref={headingRef} tabIndex={-1} style={{ outline: 'none' }}>
            <Header variant="h2" description={number}>
              {documentTitle(invoice.type)}
            </Header>
          </div>

          <DetailActions
            invoice={invoice}
            access={access}
            editing={editing}
            onEdit={() => setEditing(true)}
            onDialog={setDialog}
            requestingSunat={requestingSunat}
            onRequestSunat={() => void requestSunat()}
            retrying={retrying}
            onRetrySap={() => void retrySapPosting()}
          />

          <InvoiceEssentials invoice={invoice} staff={staff} />

          {invoice.sapPosting && <SapPostingAlert posting={invoice.sapPosting} canRetry={access.canRetrySapPosting} />}

          <DetailAlerts invoice={invoice} risk={risk} editBlockedReason={access.editBlockedReason} />

          {editing && <ReviewForm invoice={invoice} path={path} onCancel={() => setEditing(false)} onSaved={saved} />}
          {/* While editing, the form holds the review data; the rest stays in view below it. */}
          <InvoiceSummary
            invoice={invoice}
            reviewPart={!editing}
            canRequestSunat={access.canRequestSunatValidation}
            staff={staff}
            onOpenInvoice={onOpenInvoice}
          />

          {/* The Ley 29623 explanations, collapsed below what a person came for. */}
          <AcquirerConformitySection
            invoice={invoice}
            level={user?.level}
            path={path}
            number={number}
            onRegistered={(updated, decision) => changed(updated, conformityMessages.modal.success[decision])}
          />

          <MessagesSection
            invoice={invoice}
            path={path}
            level={user?.level}
            onChanged={() => {
              void detail.mutate();
              onChanged();
            }}
          />
        </SpaceBetween>
      </div>

      <DetailDialogs
        dialog={dialog}
        path={path}
        invoice={invoice}
        onDismiss={() => setDialog(null)}
        onApproved={approved}
        onRejected={(updated) => decided(updated, text.reject.success)}
      />
    </Box>
  );
}

/**
 * What follows a change made in the sidebar: the invoice as it is now, the list refreshed and the message of spec §9;
 * and staff's requests (SUNAT asked again, a FAILED SAP posting retried).
 */
function useDetailChanges({
  path,
  detail,
  onChanged,
  onClose,
  setEditing,
  setDialog,
  headingRef,
}: {
  path: RoutePath<typeof routes.getInvoice>;
  detail: { mutate: (data?: InvoiceDetail, options?: { revalidate: boolean }) => unknown };
  onChanged: () => void;
  onClose: () => void;
  setEditing: (editing: boolean) => void;
  setDialog: (dialog: Dialog) => void;
  headingRef: RefObject<HTMLDivElement | null>;
}) {
  const feedback = useFeedback();
  const [retrying, setRetrying] = useState(false);
  const [requestingSunat, setRequestingSunat] = useState(false);
  /** After a change: the list refreshes and the message of spec §9 shows. */
  const changed = (updated: InvoiceDetail, message: string) => {
    void detail.mutate(updated, { revalidate: false });
    onChanged();
    feedback.success(message);
  };

  /** Saved review data: the sidebar shows the invoice as it is now, ready to be approved. */
  const saved = (updated: InvoiceDetail) => {
    setEditing(false);
    changed(updated, text.form.saved);
    // The form (and the button pressed) is gone: focus returns to the top of the sidebar.
    requestAnimationFrame(() => headingRef.current?.focus());
  };

  /**
   * Rejected: the review is over, so the sidebar closes and the list, its updated row and the message show (on a
   * phone the sidebar covers them).
   */
  const decided = (updated: InvoiceDetail, message: string) => {
    setDialog(null);
    changed(updated, message);
    onClose();
  };

  /**
   * Approved: the message of spec §9, and the sidebar stays open on the SAP posting it started, whose state it
   * follows until SAP posts it or it fails (a late or failing posting is said at once, at the top).
   */
  const approved = (updated: InvoiceDetail) => {
    setDialog(null);
    changed(updated, text.approve.success);
    requestAnimationFrame(() => headingRef.current?.focus());
  };

  /** Staff ask SUNAT again: the sidebar shows the invoice waiting, and follows it until SUNAT answers. */
  const requestSunat = async () => {
    setRequestingSunat(true);
    try {
      const updated = await apiCall(routes.requestSunatValidation, { path });
      void detail.mutate(updated, { revalidate: false });
      onChanged();
      feedback.success(text.sunat.requested);
    } catch (cause) {
      feedback.error(cause);
    } finally {
      setRequestingSunat(false);
    }
  };

  /** An administrator's retry of a FAILED SAP posting: the sidebar shows the new round of attempts. */
  const retrySapPosting = async () => {
    setRetrying(true);
    try {
      changed(await apiCall(routes.retrySapPosting, { path }), text.sapPosting.retrySuccess);
    } catch (cause) {
      feedback.error(cause);
    } finally {
      setRetrying(false);
    }
  };
  return { changed, saved, decided, approved, requestSunat, requestingSunat, retrySapPosting, retrying };
}
