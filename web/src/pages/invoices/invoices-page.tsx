import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import Button from '@cloudscape-design/components/button';
import ButtonDropdown from '@cloudscape-design/components/button-dropdown';
import Cards from '@cloudscape-design/components/cards';
import CollectionPreferences, {
  type CollectionPreferencesProps,
} from '@cloudscape-design/components/collection-preferences';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import type { Invoice, InvoiceSummary } from '@portal/shared';
import { runtimeConfig } from '../../config/runtime-config';
import { useClients } from '../../hooks/use-clients';
import { INVOICES_PATH, invoiceDetailHref, invoiceKeyOf } from '../../layout/header/invoice-links';
import { useSidePanel } from '../../layout/side-panel';
import { useNarrowScreen } from '../../hooks/use-narrow-screen';
import { useNotifications } from '../notifications/use-notifications';
import { chooseCompany, resolveActiveCompany, useChosenCompany } from '../../session/active-company';
import { audienceOf } from '../../session/audience';
import { useCurrentUser } from '../../session/use-current-user';
import { TableEmptyState } from '../../components/table-empty-state';
import { CursorPagination } from '../../components/cursor-pagination';
import { InvoiceDetailPanel, InvoiceNotFoundPanel } from './detail/invoice-detail-panel';
import { COLUMN_WIDTHS, invoiceColumns, sortInvoices, type ColumnHandlers } from './columns';
import { invoiceNumber } from './invoice-number';
import { INVOICE_CARDS_PER_ROW, invoiceCardDefinition } from './invoice-cards';
import { useListExport } from '../../components/list-export';
import { AttachmentsModal, useFileActions } from './file-actions';
import { hasMoreFilters, isFiltered } from './invoice-filter';
import { FiltersToggle, InvoiceFilters, filterTokens } from './invoice-filters';
import { invoicesMessages } from './messages';
import { NewInvoicePanel } from './new-invoice-panel';
import { INVOICES_PAGE_SIZES } from './page-size';
import { resolveFilter, useInvoiceFilter } from './use-invoice-filter';
import { useInvoiceCount, useInvoices, useRefreshInvoices } from './use-invoices';
import { useInvoicesPageSize } from './use-page-size';
import { ALWAYS_VISIBLE, type InvoiceColumnId } from './table-preferences';
import { useInvoicesTablePreferences } from './use-table-preferences';
import { MailIntakeAddresses, MailIntakeModal } from './mail-intake';
import { XmlUploadButton, XmlUploadProgress, useXmlUpload } from './xml-upload';
import { ZipUploadButton, useZipUpload, zipMessages } from './zip-upload';
import './invoice-cards.css';

const text = invoicesMessages;

const NEW_INVOICE_PANEL = 'new-invoice';

/**
 * The widths the user gave columns by resizing them: the table reports every column's, in the order of the
 * definitions (hidden ones included); only those that differ from the default are kept.
 */
function resizedWidths(columns: readonly { id: InvoiceColumnId }[], widths: readonly number[]) {
  return Object.fromEntries(
    columns.flatMap((column, index) => {
      const width = widths[index];
      return width !== undefined && width !== COLUMN_WIDTHS[column.id].width ? [[column.id, width]] : [];
    }),
  );
}

/** The columns of the preferences dialog's answer (the table has no column groups). */
function contentColumns(
  items: CollectionPreferencesProps.Preferences['contentDisplay'],
): { id: string; visible: boolean }[] | undefined {
  return items?.flatMap((item) => (item.type === 'group' ? [] : [{ id: item.id, visible: item.visible }]));
}

const PAGE_SIZE_OPTIONS = INVOICES_PAGE_SIZES.map((size) => ({
  value: size,
  label: text.preferences.pageSizeOption(size),
}));

/** The navigation state of an invoice opened from the list: closing its detail goes back to that list. */
interface OpenedFromList {
  readonly fromList: true;
}

const openedFromList = (state: unknown) => (state as Partial<OpenedFromList> | null)?.fromList === true;

/**
 * Invoices that arrive or change without this screen's doing (an e-mail's documents, a zip whose modal was closed,
 * a colleague's approval) leave a notice in the person's feed, which the header reads every minute: a new one
 * refreshes the list and its count, so nobody has to press 'Actualizar' to see them.
 */
function useRefreshOnNewNotice(refresh: () => Promise<unknown>) {
  const { items, isLoading } = useNotifications();
  const newest = items[0]?.registeredAt ?? null;
  const seen = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (isLoading) return;
    // The first answer is what the list already shows.
    if (seen.current !== undefined && newest !== seen.current) void refresh();
    seen.current = newest;
  }, [isLoading, newest, refresh]);
}

/** Opens 'Más filtros' by itself when the URL brings one of its filters (a link from the header). */
function useExpanded(moreActive: boolean) {
  const [expanded, setExpanded] = useState(moreActive);
  const [wasActive, setWasActive] = useState(moreActive);
  if (wasActive !== moreActive) {
    setWasActive(moreActive);
    if (moreActive && !expanded) setExpanded(true);
  }
  return [expanded, setExpanded] as const;
}

/**
 * '/' and '/invoices' (spec §2 Invoices, 'Mis comprobantes'; 'Comprobantes recibidos' for staff, docs/web-screens.md):
 * the invoices within the user's reach, a page at a time (20, 50 or 100 rows; on a phone as cards, one an invoice),
 * with the filters of spec §3 in the URL, the row's file actions,
 * the detail sidebar, and for suppliers (and admins) 'Cargar XML' and 'Nuevo comprobante'. The table's
 * preferences (rows per page, columns and their order, wrapping) are kept in the browser.
 *
 * '/invoices/:supplierId/:invoiceType/:invoiceId' is the same screen with that invoice's detail open: the
 * detail sidebar always follows the address, so that it can be linked (the e-mails do), reloaded and
 * closed with the browser's Back. Closing it goes back to the list with its filters.
 */
export default function InvoicesPage() {
  const { user, taxIds } = useCurrentUser();
  const level = user?.level;
  const { clients, isLoading: clientsLoading, error: clientsError } = useClients();
  const intakeMailDomain = runtimeConfig().intakeMailDomain;
  const chosen = useChosenCompany();
  const { filter, update, clear } = useInvoiceFilter();
  const resolved = useMemo(
    () => resolveFilter(level, filter, { taxIds, chosen, clients }),
    [level, filter, taxIds, chosen, clients],
  );
  const [pageSize, setPageSize] = useInvoicesPageSize();
  const [display, setDisplay] = useInvoicesTablePreferences(level);
  const invoices = useInvoices(resolved.query, pageSize);
  const total = useInvoiceCount(resolved.query);
  const listExport = useListExport('invoices', resolved.query);
  const refreshAll = useRefreshInvoices();
  const sidePanel = useSidePanel();
  const fileActions = useFileActions();
  const navigate = useNavigate();
  const location = useLocation();
  const params = useParams();
  const [expanded, setExpanded] = useExpanded(hasMoreFilters(filter));
  // On a phone the list comes first: the filters wait behind 'Filtros' (their tokens still show what applies).
  const narrow = useNarrowScreen();
  const [filtersShown, setFiltersShown] = useState(false);
  const filtersRegionId = useId();
  // The intake addresses opened from a phone's menu of upload actions (a wider screen has their own button).
  const [intakeShown, setIntakeShown] = useState(false);
  const [attachmentsOf, setAttachmentsOf] = useState<InvoiceSummary | null>(null);
  // Client-side: the API has one order (newest first); a column sorts the page on screen.
  const [sorting, setSorting] = useState<{ columnId?: string; descending: boolean }>({ descending: false });

  const canSubmit = level === 'SUPPLIER' || level === 'ADMIN';
  const supplierTaxId = level === 'SUPPLIER' ? (resolveActiveCompany(taxIds, chosen) ?? undefined) : undefined;

  // The invoice the address names, if any: its detail is open beside the list.
  const linkedId = params.invoiceId;
  const linkedKey = useMemo(
    () => invoiceKeyOf({ supplierId: params.supplierId, invoiceType: params.invoiceType, invoiceId: linkedId }),
    [params.supplierId, params.invoiceType, linkedId],
  );
  const panelId = linkedId ? `invoice:${params.supplierId}/${params.invoiceType}/${linkedId}` : null;
  const fromList = openedFromList(location.state);

  const detailHref = useCallback(
    (invoice: Pick<Invoice, 'supplierId' | 'type' | 'id'>) =>
      invoiceDetailHref({ supplierId: invoice.supplierId, type: invoice.type, id: invoice.id }, location.search),
    [location.search],
  );
  /** Opens an invoice's detail: its address, which the browser's Back closes again. */
  const openDetail = useCallback(
    (invoice: Pick<Invoice, 'supplierId' | 'type' | 'id'>) => {
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
  const handlers = useRef({ closeDetail, refreshAll, received, openDetail });
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

  const upload = useXmlUpload((invoice) => handlers.current.received(invoice));
  // A batch opened from its e-mail's link (/invoices?zip=<id>) is read once, when the screen opens.
  const [zipLinked] = useState(() => new URLSearchParams(location.search).get('zip'));
  const zip = useZipUpload(
    canSubmit ? zipLinked : null,
    useCallback(() => void handlers.current.refreshAll(), []),
  );
  useRefreshOnNewNotice(refreshAll);

  // The columns (and a phone's cards) do not change when an invoice opens (openDetail does): a new set would make
  // the table lay out and measure every column again in the frame that opens the sidebar.
  const cellHandlers = useMemo<ColumnHandlers>(
    () => ({
      detailHref,
      onOpenDetail: (invoice) => handlers.current.openDetail(invoice),
      onFileAction: (action, invoice) => {
        if (action === 'xml') void fileActions.downloadXml(invoice);
        else if (action === 'pdf') void fileActions.viewPdf(invoice);
        else setAttachmentsOf(invoice);
      },
    }),
    [detailHref, fileActions],
  );
  const columns = useMemo(
    () => invoiceColumns(cellHandlers, display.columnWidths),
    [cellHandlers, display.columnWidths],
  );
  const cardDefinition = useMemo(() => invoiceCardDefinition(cellHandlers, level), [cellHandlers, level]);
  const sortingColumn = columns.find((column) => column.id === sorting.columnId);
  const items = useMemo(
    () => sortInvoices(invoices.items, sortingColumn, sorting.descending),
    [invoices.items, sortingColumn, sorting.descending],
  );

  const openNewInvoice = () => {
    // The form takes the sidebar: an invoice's address would no longer say what is open.
    if (linkedId) navigate(`${INVOICES_PATH}${location.search}`, { replace: true });
    sidePanel.open(
      <NewInvoicePanel
        supplierTaxId={supplierTaxId}
        supplierName={user?.companies.find((company) => company.taxId === supplierTaxId)?.name ?? undefined}
        defaultClient={level === 'SUPPLIER' ? filter.client : undefined}
        onCreated={(invoice) => handlers.current.received(invoice)}
        onClose={() => sidePanel.close(NEW_INVOICE_PANEL)}
      />,
      text.create.panelLabel,
      { id: NEW_INVOICE_PANEL },
    );
  };

  const onClientChange = (taxId: string | undefined) => {
    // Offices and responsibles belong to a company: they do not carry over to another one.
    const reset = { office: undefined, responsible: undefined, acquirer: undefined };
    if (level === 'MANAGER') {
      chooseCompany(taxId ?? null);
      update(reset);
    } else {
      update({ ...reset, client: taxId });
    }
  };

  const filtered = isFiltered(filter);
  const title = audienceOf(level) === 'staff' ? text.staffTitle : text.title;
  const counter = total.data ? text.counter(total.data) : undefined;
  // Beside the title on a laptop (one row less above the list); on a phone, under the description, with the button
  // the filters wait behind (a row of its own would push the third invoice off the first screen).
  const headerActions = (
    <SpaceBetween direction="horizontal" size="xs">
      <Button
        iconName="refresh"
        ariaLabel={text.refresh}
        loading={invoices.isRefreshing}
        onClick={() => void invoices.refresh()}
      />
      {listExport.button}
      {narrow && (
        <FiltersToggle
          shown={filtersShown}
          onShownChange={setFiltersShown}
          controls={filtersRegionId}
          active={filterTokens(level, filter, resolved, { clients }).length}
        />
      )}
      {canSubmit &&
        (narrow ? (
          // Its icon alone on a phone, so that the actions keep one row and three invoices stay on the first screen.
          <Button variant="primary" iconName="add-plus" ariaLabel={text.create.button} onClick={openNewInvoice} />
        ) : (
          <Button variant="primary" iconName="add-plus" onClick={openNewInvoice}>
            {text.create.button}
          </Button>
        ))}
    </SpaceBetween>
  );

  // What the table and a phone's cards share: the same header and counter, filters, states and pages.
  const collection = {
    variant: 'full-page',
    stickyHeader: true,
    header: (
      <SpaceBetween size="s">
        {/* Title and description first, at every width, then the actions: the description stays where index.html's
            frame paints it (web/frame/, docs/web-performance.md), whatever actions the level has. */}
        <Header
          variant="awsui-h1-sticky"
          counter={narrow ? undefined : counter}
          description={narrow ? text.descriptionPhone : text.description}
          actions={narrow ? undefined : headerActions}
        >
          {narrow ? (
            // On a phone the count has a line of its own, kept while it loads: however long it is («(más de
            // 1,000)»), it never wraps the title, and the description stays where the frame paints it. The line is
            // the one the description's sorting sentence took, which cards have no columns for.
            <>
              {title} <span className="invoices-phone-count">{counter ?? '\u00a0'}</span>
            </>
          ) : (
            title
          )}
        </Header>
        {narrow && headerActions}
        {canSubmit && (
          <SpaceBetween direction="horizontal" size="xs">
            <XmlUploadButton busy={upload.state !== null} onFiles={(files) => void upload.upload(files)} />
            <ZipUploadButton busy={zip.busy} onFile={zip.upload} />
            {narrow ? (
              // One row on a phone, not three: the rest of the upload actions wait in a menu, so that the first
              // screen still shows three invoices under a supplier's longer header.
              <ButtonDropdown
                variant="icon"
                ariaLabel={text.moreUploads}
                expandToViewport
                items={[
                  { id: 'zip-history', text: zipMessages.history },
                  ...(intakeMailDomain
                    ? [{ id: 'mail-intake', text: text.byEmail.header, disabled: clients.length === 0 }]
                    : []),
                ]}
                onItemClick={({ detail }) => {
                  if (detail.id === 'zip-history') zip.openHistory();
                  else setIntakeShown(true);
                }}
              />
            ) : (
              <>
                <Button onClick={zip.openHistory}>{zipMessages.history}</Button>
                {intakeMailDomain && <MailIntakeAddresses domain={intakeMailDomain} clients={clients} />}
              </>
            )}
          </SpaceBetween>
        )}
        {upload.state && <XmlUploadProgress state={upload.state} />}
        {zip.alert}
        {listExport.alert}
      </SpaceBetween>
    ),
    items,
    trackBy: (invoice: InvoiceSummary) => `${invoice.supplierId}#${invoice.type}#${invoice.id}`,
    loading: invoices.isLoading || (resolved.query === null && clientsLoading),
    loadingText: text.loading,
    filter: (
      <InvoiceFilters
        level={level}
        taxIds={taxIds}
        clients={clients}
        clientsLoading={clientsLoading}
        clientsError={clientsError}
        filter={filter}
        resolved={resolved}
        onChange={update}
        onClientChange={onClientChange}
        onClear={() => clear()}
        expanded={expanded}
        onExpandedChange={setExpanded}
        narrow={narrow}
        shown={!narrow || filtersShown}
        regionId={filtersRegionId}
      />
    ),
    empty:
      invoices.mayHaveMore && !invoices.error ? (
        <TableEmptyState message={text.shortPage} action={{ text: text.keepSearching, onClick: invoices.nextPage }} />
      ) : (
        <TableEmptyState
          testId="invoices"
          error={invoices.error}
          onRetry={invoices.refresh}
          message={text.empty}
          detail={filtered ? text.emptyFiltered : undefined}
          action={filtered ? { text: text.filters.clear, onClick: () => clear() } : undefined}
        />
      ),
    pagination: <CursorPagination pages={invoices} />,
  } as const;
  const preferencesTexts = {
    title: text.preferences.title,
    confirmLabel: text.preferences.confirm,
    cancelLabel: text.preferences.cancel,
    closeAriaLabel: text.preferences.close,
  } as const;

  return (
    <>
      {narrow ? (
        // A phone: a card an invoice, which needs no sideways scrolling; the list is named by the title. Its
        // preferences are the page's size only (columns, wrapping and row density are the table's, kept for a wider
        // screen). No selection, as the table has none: staff act on one invoice at a time, from its sidebar.
        <Cards
          {...collection}
          cardDefinition={cardDefinition}
          cardsPerRow={INVOICE_CARDS_PER_ROW}
          preferences={
            <CollectionPreferences
              {...preferencesTexts}
              pageSizePreference={{ title: text.preferences.cardsPageSize, options: PAGE_SIZE_OPTIONS }}
              preferences={{ pageSize }}
              onConfirm={({ detail }) => setPageSize(detail.pageSize)}
            />
          }
        />
      ) : (
        <Table
          {...collection}
          enableKeyboardNavigation
          ariaLabels={{ tableLabel: text.tableLabel }}
          columnDefinitions={columns}
          columnDisplay={display.contentDisplay}
          stickyColumns={{ first: 1 }}
          resizableColumns
          onColumnWidthsChange={({ detail }) => setDisplay({ columnWidths: resizedWidths(columns, detail.widths) })}
          sortingColumn={sortingColumn}
          sortingDescending={sorting.descending}
          onSortingChange={({ detail }) =>
            setSorting({
              columnId: columns.find((column) => column === detail.sortingColumn)?.id,
              descending: detail.isDescending ?? false,
            })
          }
          wrapLines={display.wrapLines}
          contentDensity={display.contentDensity}
          preferences={
            <CollectionPreferences
              {...preferencesTexts}
              pageSizePreference={{ title: text.preferences.pageSize, options: PAGE_SIZE_OPTIONS }}
              wrapLinesPreference={{
                label: text.preferences.wrapLines,
                description: text.preferences.wrapLinesDescription,
              }}
              contentDensityPreference={{
                label: text.preferences.compact,
                description: text.preferences.compactDescription,
              }}
              contentDisplayPreference={{
                title: text.preferences.columns,
                description: text.preferences.columnsDescription,
                options: columns.map((column) => ({
                  id: column.id,
                  label: text.columns[column.id],
                  alwaysVisible: ALWAYS_VISIBLE.includes(column.id),
                })),
              }}
              preferences={{
                pageSize,
                wrapLines: display.wrapLines,
                contentDensity: display.contentDensity,
                contentDisplay: display.contentDisplay,
              }}
              onConfirm={({ detail }) => {
                setPageSize(detail.pageSize);
                setDisplay({
                  contentDisplay: contentColumns(detail.contentDisplay),
                  wrapLines: detail.wrapLines,
                  contentDensity: detail.contentDensity,
                });
              }}
            />
          }
        />
      )}
      {attachmentsOf && (
        <AttachmentsModal
          invoice={attachmentsOf}
          label={invoiceNumber(attachmentsOf)}
          onDismiss={() => setAttachmentsOf(null)}
        />
      )}
      {zip.modal}
      {intakeShown && intakeMailDomain && (
        <MailIntakeModal domain={intakeMailDomain} clients={clients} onDismiss={() => setIntakeShown(false)} />
      )}
    </>
  );
}
