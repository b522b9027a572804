import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import type { Invoice } from '@portal/shared';
import { INVOICES_PATH, invoiceDetailHref, invoiceKeyOf } from '../../layout/header/invoice-links';
import { useSidePanel } from '../../layout/side-panel';
import { InvoiceDetailPanel, InvoiceNotFoundPanel } from './detail/invoice-detail-panel';
import { invoicesMessages } from './messages';

const text = invoicesMessages;

/** The navigation state of an invoice opened from the list: closing its detail goes back to that list. */
interface OpenedFromList {
  readonly fromList: true;
}

const openedFromList = (state: unknown) => (state as Partial<OpenedFromList> | null)?.fromList === true;

type InvoiceRefOf = Pick<Invoice, 'supplierId' | 'type' | 'id'>;

/** What outlives a render (a sidebar, an upload under way): the latest handlers, with the filters of the moment. */
export interface DetailHandlers {
  readonly closeDetail: () => void;
  readonly refreshAll: () => Promise<unknown>;
  readonly received: (invoice: Invoice) => void;
  readonly openDetail: (invoice: InvoiceRefOf) => void;
}

/**
 * The detail sidebar follows the address ('/invoices/:supplierId/:invoiceType/:invoiceId'), so that it can be
 * linked, reloaded and closed with the browser's Back; closing it goes back to the list with its filters.
 */
export function useInvoiceDetailRoute(refreshAll: () => Promise<unknown>) {
  const sidePanel = useSidePanel();
  const navigate = useNavigate();
  const location = useLocation();
  const params = useParams();

  // The invoice the address names, if any: its detail is open beside the list.
  const linkedId = params.invoiceId;
  const linkedKey = useMemo(
    () => invoiceKeyOf({ supplierId: params.supplierId, invoiceType: params.invoiceType, invoiceId: linkedId }),
    [params.supplierId, params.invoiceType, linkedId],
  );
  const panelId = linkedId ? `invoice:${params.supplierId}/${params.invoiceType}/${linkedId}` : null;
  const fromList = openedFromList(location.state);

  const detailHref = useCallback(
    (invoice: InvoiceRefOf) =>
      invoiceDetailHref({ supplierId: invoice.supplierId, type: invoice.type, id: invoice.id }, location.search),
    [location.search],
  );
  /** Opens an invoice's detail: its address, which the browser's Back closes again. */
  const openDetail = useCallback(
    (invoice: InvoiceRefOf) => {
      // From one detail to another, the address is replaced: Back and closing still go to the list.
      const state: OpenedFromList | undefined = !linkedId || fromList ? { fromList: true } : undefined;
      navigate(detailHref(invoice), { replace: Boolean(linkedId), state });
    },
    [navigate, detailHref, linkedId, fromList],
  );
  /** Back to the list with its filters: the entry before when the list opened the detail, else in its place. */
  const closeDetail = useCallback(() => {
    if (fromList) navigate(-1);
    else navigate(`${INVOICES_PATH}${location.search}`, { replace: true });
  }, [navigate, fromList, location.search]);

  // A submitted invoice: the list shows it, and its detail opens (behind the 'Buen trabajo' message).
  const received = useCallback(
    (invoice: Invoice) => {
      void refreshAll();
      openDetail(invoice);
    },
    [refreshAll, openDetail],
  );

  // Callbacks that outlive a render (a sidebar, an upload under way) read the latest handlers, with the
  // filters of the moment; the sidebar itself changes only with the invoice.
  const handlers = useRef<DetailHandlers>({ closeDetail, refreshAll, received, openDetail });
  handlers.current = { closeDetail, refreshAll, received, openDetail };
  useEffect(() => {
    if (!panelId) return;
    const close = () => handlers.current.closeDetail();
    sidePanel.open(
      linkedKey ? (
        <InvoiceDetailPanel
          invoice={linkedKey}
          onClose={close}
          onChanged={() => void handlers.current.refreshAll()}
          onOpenInvoice={(key) => handlers.current.openDetail(key)}
        />
      ) : (
        <InvoiceNotFoundPanel onClose={close} />
      ),
      text.detailPanelLabel(linkedKey?.id ?? ''),
      { id: panelId, onDismiss: close },
    );
    return () => sidePanel.close(panelId);
  }, [panelId, linkedKey, sidePanel]);

  /** The form takes the sidebar: an invoice's address would no longer say what is open. */
  const leaveDetail = () => {
    if (linkedId) navigate(`${INVOICES_PATH}${location.search}`, { replace: true });
  };
  return { detailHref, handlers, leaveDetail };
}
