import { useCallback, useEffect, useId, useMemo, useRef, useState, type RefObject } from 'react';
import { useLocation } from 'react-router-dom';
import Cards, { type CardsProps } from '@cloudscape-design/components/cards';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import type { Client, Invoice, InvoiceSummary, Level } from '@portal/shared';
import { runtimeConfig } from '../../config/runtime-config';
import { useClients } from '../../hooks/use-clients';
import { useSidePanel } from '../../layout/side-panel';
import { useNarrowScreen } from '../../hooks/use-narrow-screen';
import { useNotifications } from '../notifications/use-notifications';
import { chooseCompany, resolveActiveCompany, useChosenCompany } from '../../session/active-company';
import { audienceOf } from '../../session/audience';
import { useCurrentUser } from '../../session/use-current-user';
import { TableEmptyState } from '../../components/table-empty-state';
import { CursorPagination } from '../../components/cursor-pagination';
import { invoiceColumns, sortInvoices, type ColumnHandlers } from './columns';
import { invoiceNumber } from './invoice-number';
import { INVOICE_CARDS_PER_ROW, invoiceCardDefinition } from './invoice-cards';
import { useListExport } from '../../components/list-export';
import { AttachmentsModal, useFileActions } from './file-actions';
import { hasMoreFilters, isFiltered, type FilterPatch } from './invoice-filter';
import { InvoiceFilters, filterTokens } from './invoice-filters';
import { invoicesMessages } from './messages';
import { NewInvoicePanel, type NewInvoicePanelProps } from './new-invoice-panel';
import { resolveFilter, useInvoiceFilter } from './use-invoice-filter';
import { useInvoiceCount, useInvoices, useRefreshInvoices } from './use-invoices';
import { useInvoicesPageSize } from './use-page-size';
import { useInvoicesTablePreferences } from './use-table-preferences';
import { MailIntakeModal } from './mail-intake';
import { useXmlUpload } from './xml-upload';
import { useZipUpload } from './zip-upload';
import { HeaderActions, InvoicesHeader } from './invoices-header';
import { CardsPreferences, TablePreferences, resizedWidths } from './invoices-preferences';
import type { InvoicesTablePreferences } from './table-preferences';
import type { TablePreferencesChange } from './use-table-preferences';
import { useInvoiceDetailRoute, type DetailHandlers } from './use-invoice-detail-route';
import './invoice-cards.css';

const text = invoicesMessages;

const NEW_INVOICE_PANEL = 'new-invoice';

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

/** On a phone the list comes first: the filters wait behind 'Filtros' (their tokens still show what applies). */
function usePhoneFilters() {
  const narrow = useNarrowScreen();
  const [filtersShown, setFiltersShown] = useState(false);
  const filtersRegionId = useId();
  return { narrow, filtersShown, setFiltersShown, filtersRegionId };
}

/**
 * The client select: a manager switches its active company; the others filter by client. Offices and responsibles
 * belong to a company: they do not carry over to another one.
 */
function changeClient(level: Level | undefined, taxId: string | undefined, update: (patch: FilterPatch) => void) {
  const reset = { office: undefined, responsible: undefined, acquirer: undefined };
  if (level === 'MANAGER') {
    chooseCompany(taxId ?? null);
    update(reset);
  } else {
    update({ ...reset, client: taxId });
  }
}

/** 'Nuevo comprobante': the form takes the sidebar (an invoice's address would no longer say what is open). */
function useNewInvoicePanel({
  leaveDetail,
  ...props
}: { leaveDetail: () => void } & Omit<NewInvoicePanelProps, 'onClose'>) {
  const sidePanel = useSidePanel();
  return () => {
    leaveDetail();
    sidePanel.open(
      <NewInvoicePanel {...props} onClose={() => sidePanel.close(NEW_INVOICE_PANEL)} />,
      text.create.panelLabel,
      { id: NEW_INVOICE_PANEL },
    );
  };
}

/** The filter of the URL, and what it means for the user's level and companies. */
function useResolvedFilter(level: Level | undefined, taxIds: readonly string[], clients: readonly Client[]) {
  const chosen = useChosenCompany();
  const { filter, update, clear } = useInvoiceFilter();
  const resolved = useMemo(
    () => resolveFilter(level, filter, { taxIds, chosen, clients }),
    [level, filter, taxIds, chosen, clients],
  );
  return { chosen, filter, update, clear, resolved };
}

/** 'Cargar XML' and 'Cargar ZIP': what they receive opens and refreshes through the latest handlers. */
function useUploads(canSubmit: boolean, handlers: RefObject<DetailHandlers>) {
  const location = useLocation();
  const upload = useXmlUpload((invoice) => handlers.current.received(invoice));
  // A batch opened from its e-mail's link (/invoices?zip=<id>) is read once, when the screen opens.
  const [zipLinked] = useState(() => new URLSearchParams(location.search).get('zip'));
  const zip = useZipUpload(
    canSubmit ? zipLinked : null,
    useCallback(() => void handlers.current.refreshAll(), [handlers]),
  );
  return { upload, zip };
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
  const { chosen, filter, update, clear, resolved } = useResolvedFilter(level, taxIds, clients);
  const [pageSize, setPageSize] = useInvoicesPageSize();
  const [display, setDisplay] = useInvoicesTablePreferences(level);
  const invoices = useInvoices(resolved.query, pageSize);
  const total = useInvoiceCount(resolved.query);
  const listExport = useListExport('invoices', resolved.query);
  const refreshAll = useRefreshInvoices();
  const [expanded, setExpanded] = useExpanded(hasMoreFilters(filter));
  const { narrow, filtersShown, setFiltersShown, filtersRegionId } = usePhoneFilters();
  // The intake addresses opened from a phone's menu of upload actions (a wider screen has their own button).
  const [intakeShown, setIntakeShown] = useState(false);

  const canSubmit = level === 'SUPPLIER' || level === 'ADMIN';
  const supplierTaxId = level === 'SUPPLIER' ? (resolveActiveCompany(taxIds, chosen) ?? undefined) : undefined;
  const { detailHref, handlers, leaveDetail } = useInvoiceDetailRoute(refreshAll);

  const { upload, zip } = useUploads(canSubmit, handlers);
  useRefreshOnNewNotice(refreshAll);
  const list = useInvoiceList(detailHref, handlers, display.columnWidths, level, invoices.items);

  const openNewInvoice = useNewInvoicePanel({
    leaveDetail,
    supplierTaxId,
    supplierName: user?.companies.find((company) => company.taxId === supplierTaxId)?.name ?? undefined,
    defaultClient: level === 'SUPPLIER' ? filter.client : undefined,
    onCreated: (invoice) => handlers.current.received(invoice),
  });

  const headerActions = (
    <HeaderActions
      narrow={narrow}
      refreshing={invoices.isRefreshing}
      onRefresh={() => void invoices.refresh()}
      exportButton={listExport.button}
      filters={{
        shown: filtersShown,
        onShownChange: setFiltersShown,
        controls: filtersRegionId,
        active: filterTokens(level, filter, resolved, { clients }).length,
      }}
      canSubmit={canSubmit}
      onNewInvoice={openNewInvoice}
    />
  );

  // What the table and a phone's cards share: the same header and counter, filters, states and pages.
  const collection = {
    variant: 'full-page',
    stickyHeader: true,
    header: (
      <InvoicesHeader
        title={audienceOf(level) === 'staff' ? text.staffTitle : text.title}
        counter={total.data ? text.counter(total.data) : undefined}
        narrow={narrow}
        actions={headerActions}
        canSubmit={canSubmit}
        upload={upload}
        zip={zip}
        intakeMailDomain={intakeMailDomain}
        clients={clients}
        onShowIntake={() => setIntakeShown(true)}
        exportAlert={listExport.alert}
      />
    ),
    items: list.items,
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
        onClientChange={(taxId) => changeClient(level, taxId, update)}
        onClear={() => clear()}
        expanded={expanded}
        onExpandedChange={setExpanded}
        narrow={narrow}
        shown={!narrow || filtersShown}
        regionId={filtersRegionId}
      />
    ),
    empty: <InvoicesEmpty invoices={invoices} filtered={isFiltered(filter)} onClear={() => clear()} />,
    pagination: <CursorPagination pages={invoices} />,
  } as const;
  return (
    <>
      <InvoicesCollection
        narrow={narrow}
        collection={collection}
        list={list}
        display={display}
        onDisplay={setDisplay}
        pageSize={pageSize}
        onPageSize={setPageSize}
      />
      {list.attachmentsOf && (
        <AttachmentsModal
          invoice={list.attachmentsOf}
          label={invoiceNumber(list.attachmentsOf)}
          onDismiss={() => list.setAttachmentsOf(null)}
        />
      )}
      {zip.modal}
      {intakeShown && intakeMailDomain && (
        <MailIntakeModal domain={intakeMailDomain} clients={clients} onDismiss={() => setIntakeShown(false)} />
      )}
    </>
  );
}

/**
 * The list's columns, a phone's cards and the page sorted on screen (client-side: the API has one order, newest
 * first), with the row's file actions. They do not change when an invoice opens (openDetail does): a new set
 * would make the table lay out and measure every column again in the frame that opens the sidebar.
 */
function useInvoiceList(
  detailHref: (invoice: Pick<Invoice, 'supplierId' | 'type' | 'id'>) => string,
  handlers: RefObject<DetailHandlers>,
  columnWidths: InvoicesTablePreferences['columnWidths'],
  level: Level | undefined,
  invoices: readonly InvoiceSummary[],
) {
  const fileActions = useFileActions();
  const [attachmentsOf, setAttachmentsOf] = useState<InvoiceSummary | null>(null);
  const [sorting, setSorting] = useState<{ columnId?: string; descending: boolean }>({ descending: false });
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
    [detailHref, fileActions, handlers],
  );
  const columns = useMemo(() => invoiceColumns(cellHandlers, columnWidths), [cellHandlers, columnWidths]);
  const cardDefinition = useMemo(() => invoiceCardDefinition(cellHandlers, level), [cellHandlers, level]);
  const sortingColumn = columns.find((column) => column.id === sorting.columnId);
  const items = useMemo(
    () => sortInvoices(invoices, sortingColumn, sorting.descending),
    [invoices, sortingColumn, sorting.descending],
  );
  return { columns, cardDefinition, sorting, setSorting, sortingColumn, items, attachmentsOf, setAttachmentsOf };
}

/** What the table and a phone's cards share: the header, the filters, the states and the pages. */
type SharedCollection = Pick<
  TableProps<InvoiceSummary> & CardsProps<InvoiceSummary>,
  'stickyHeader' | 'header' | 'items' | 'trackBy' | 'loading' | 'loadingText' | 'filter' | 'empty' | 'pagination'
> & { readonly variant: 'full-page' };

/** The invoices as a table, or on a phone as cards, with their preferences. */
function InvoicesCollection({
  narrow,
  collection,
  list,
  display,
  onDisplay,
  pageSize,
  onPageSize,
}: {
  narrow: boolean;
  collection: SharedCollection;
  list: ReturnType<typeof useInvoiceList>;
  display: InvoicesTablePreferences;
  onDisplay: (change: TablePreferencesChange) => void;
  pageSize: number;
  onPageSize: (size: number | undefined) => void;
}) {
  const { columns, sorting, sortingColumn } = list;
  return narrow ? (
    // A phone: a card an invoice, which needs no sideways scrolling; the list is named by the title. Its
    // preferences are the page's size only (columns, wrapping and row density are the table's, kept for a wider
    // screen). No selection, as the table has none: staff act on one invoice at a time, from its sidebar.
    <Cards
      {...collection}
      cardDefinition={list.cardDefinition}
      cardsPerRow={INVOICE_CARDS_PER_ROW}
      preferences={<CardsPreferences pageSize={pageSize} onPageSize={onPageSize} />}
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
      onColumnWidthsChange={({ detail }) => onDisplay({ columnWidths: resizedWidths(columns, detail.widths) })}
      sortingColumn={sortingColumn}
      sortingDescending={sorting.descending}
      onSortingChange={({ detail }) =>
        list.setSorting({
          columnId: columns.find((column) => column === detail.sortingColumn)?.id,
          descending: detail.isDescending ?? false,
        })
      }
      wrapLines={display.wrapLines}
      contentDensity={display.contentDensity}
      preferences={
        <TablePreferences
          columns={columns}
          pageSize={pageSize}
          display={display}
          onPageSize={onPageSize}
          onDisplay={onDisplay}
        />
      }
    />
  );
}

/** No invoice on the page: a short page that may have more further on, or none at all (filtered or not). */
function InvoicesEmpty({
  invoices,
  filtered,
  onClear,
}: {
  invoices: ReturnType<typeof useInvoices>;
  filtered: boolean;
  onClear: () => void;
}) {
  return invoices.mayHaveMore && !invoices.error ? (
    <TableEmptyState message={text.shortPage} action={{ text: text.keepSearching, onClick: invoices.nextPage }} />
  ) : (
    <TableEmptyState
      testId="invoices"
      error={invoices.error}
      onRetry={invoices.refresh}
      message={text.empty}
      detail={filtered ? text.emptyFiltered : undefined}
      action={filtered ? { text: text.filters.clear, onClick: onClear } : undefined}
    />
  );
}
