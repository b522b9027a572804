import { useCallback, useMemo, useState } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import CollectionPreferences from '@cloudscape-design/components/collection-preferences';
import Header from '@cloudscape-design/components/header';
import Pagination from '@cloudscape-design/components/pagination';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import type { InvoiceSummary } from '@portal/shared';
import { errorMessage } from '../../api/client';
import { useClients } from '../../hooks/use-clients';
import { useSidePanel } from '../../layout/side-panel';
import { chooseCompany, resolveActiveCompany, useChosenCompany } from '../../session/active-company';
import { useCurrentUser } from '../../session/use-current-user';
import { InvoiceDetailPanel } from './detail/invoice-detail-panel';
import { invoiceColumns, invoiceNumber, sortInvoices } from './columns';
import { AttachmentsModal, useFileActions } from './file-actions';
import { hasMoreFilters, isFiltered } from './invoice-filter';
import { InvoiceFilters } from './invoice-filters';
import { invoicesMessages } from './messages';
import { NewInvoicePanel } from './new-invoice-panel';
import { INVOICES_PAGE_SIZES } from './page-size';
import { resolveFilter, useInvoiceFilter } from './use-invoice-filter';
import { useInvoices, useRefreshInvoices } from './use-invoices';
import { useInvoicesPageSize } from './use-page-size';
import { XmlUploadButton, XmlUploadProgress, useXmlUpload } from './xml-upload';

const text = invoicesMessages;

const PAGE_SIZE_OPTIONS = INVOICES_PAGE_SIZES.map((size) => ({
  value: size,
  label: text.preferences.pageSizeOption(size),
}));

/** Opens 'Ver más filtros' by itself when the URL brings one of its filters (a link from the header). */
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
 * '/' and '/invoices' (spec §2 Invoices, 'Mis comprobantes'): the invoices within the user's reach, a
 * page at a time (20, 50 or 100 rows, the table's preference kept in the browser), with the filters of
 * spec §3 in the URL, the row's file actions, the detail sidebar,
 * and for suppliers (and admins) 'Cargar XML' and 'Nuevo comprobante'.
 */
export default function InvoicesPage() {
  const { user, taxIds } = useCurrentUser();
  const level = user?.level;
  const { clients, isLoading: clientsLoading, error: clientsError } = useClients();
  const chosen = useChosenCompany();
  const { filter, update, clear } = useInvoiceFilter();
  const resolved = useMemo(
    () => resolveFilter(level, filter, { taxIds, chosen, clients }),
    [level, filter, taxIds, chosen, clients],
  );
  const [pageSize, setPageSize] = useInvoicesPageSize();
  const invoices = useInvoices(resolved.query, pageSize);
  const refreshAll = useRefreshInvoices();
  const sidePanel = useSidePanel();
  const fileActions = useFileActions();
  const upload = useXmlUpload(() => void refreshAll());
  const [expanded, setExpanded] = useExpanded(hasMoreFilters(filter));
  const [attachmentsOf, setAttachmentsOf] = useState<InvoiceSummary | null>(null);
  // Client-side: the API has one order (newest first); a column sorts the page on screen.
  const [sorting, setSorting] = useState<{ columnId?: string; descending: boolean }>({ descending: false });

  const canSubmit = level === 'SUPPLIER' || level === 'ADMIN';
  const supplierTaxId = level === 'SUPPLIER' ? (resolveActiveCompany(taxIds, chosen) ?? undefined) : undefined;

  const openDetail = useCallback(
    (invoice: InvoiceSummary) =>
      sidePanel.open(
        <InvoiceDetailPanel
          invoice={{ supplierId: invoice.supplierId, invoiceType: invoice.type, invoiceId: invoice.id }}
          onClose={sidePanel.close}
          onChanged={() => void refreshAll()}
        />,
        text.detailPanelLabel(invoiceNumber(invoice)),
      ),
    [sidePanel, refreshAll],
  );

  const columns = useMemo(
    () =>
      invoiceColumns({
        onOpenDetail: openDetail,
        onFileAction: (action, invoice) => {
          if (action === 'xml') void fileActions.downloadXml(invoice);
          else if (action === 'pdf') void fileActions.viewPdf(invoice);
          else setAttachmentsOf(invoice);
        },
      }),
    [openDetail, fileActions],
  );
  const sortingColumn = columns.find((column) => column.id === sorting.columnId);
  const items = useMemo(
    () => sortInvoices(invoices.items, sortingColumn, sorting.descending),
    [invoices.items, sortingColumn, sorting.descending],
  );

  const openNewInvoice = () =>
    sidePanel.open(
      <NewInvoicePanel
        supplierTaxId={supplierTaxId}
        supplierName={invoices.items.find((invoice) => invoice.supplierId === supplierTaxId)?.supplierName}
        defaultClient={level === 'SUPPLIER' ? filter.client : undefined}
        onCreated={() => void refreshAll()}
        onClose={sidePanel.close}
      />,
      text.create.panelLabel,
    );

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

  return (
    <>
      <Table
        variant="full-page"
        stickyHeader
        enableKeyboardNavigation
        ariaLabels={{ tableLabel: text.tableLabel }}
        header={
          <SpaceBetween size="s">
            <Header
              variant="awsui-h1-sticky"
              description={text.description}
              actions={
                <SpaceBetween direction="horizontal" size="xs">
                  <Button
                    iconName="refresh"
                    ariaLabel={text.refresh}
                    loading={invoices.isRefreshing}
                    onClick={() => void invoices.refresh()}
                  />
                  {canSubmit && (
                    <XmlUploadButton busy={upload.state !== null} onFile={(file) => void upload.upload(file)} />
                  )}
                  {canSubmit && (
                    <Button variant="primary" iconName="add-plus" onClick={openNewInvoice}>
                      {text.create.button}
                    </Button>
                  )}
                </SpaceBetween>
              }
            >
              {text.title}
            </Header>
            {upload.state && <XmlUploadProgress state={upload.state} />}
          </SpaceBetween>
        }
        columnDefinitions={columns}
        items={items}
        trackBy={(invoice) => `${invoice.supplierId}#${invoice.type}#${invoice.id}`}
        sortingColumn={sortingColumn}
        sortingDescending={sorting.descending}
        onSortingChange={({ detail }) =>
          setSorting({
            columnId: columns.find((column) => column === detail.sortingColumn)?.id,
            descending: detail.isDescending ?? false,
          })
        }
        loading={invoices.isLoading || (resolved.query === null && clientsLoading)}
        loadingText={text.loading}
        wrapLines={false}
        filter={
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
          />
        }
        empty={
          invoices.error ? (
            <Box textAlign="center" padding="m">
              <SpaceBetween size="s">
                <StatusIndicator type="error">
                  <span data-testid="invoices-error">{errorMessage(invoices.error)}</span>
                </StatusIndicator>
                <Button onClick={() => void invoices.refresh()}>{text.retry}</Button>
              </SpaceBetween>
            </Box>
          ) : invoices.mayHaveMore ? (
            <Box textAlign="center" color="inherit" padding="m">
              <SpaceBetween size="s">
                <span>{text.shortPage}</span>
                <Button onClick={invoices.nextPage}>{text.keepSearching}</Button>
              </SpaceBetween>
            </Box>
          ) : (
            <Box textAlign="center" color="inherit" padding="m">
              <SpaceBetween size="s">
                <span>{text.empty}</span>
                {filtered && (
                  <>
                    <span>{text.emptyFiltered}</span>
                    <Box>
                      <Button onClick={() => clear()}>{text.filters.clear}</Button>
                    </Box>
                  </>
                )}
              </SpaceBetween>
            </Box>
          )
        }
        pagination={
          <Pagination
            currentPageIndex={invoices.pageIndex + 1}
            pagesCount={invoices.pagesCount}
            openEnd={invoices.openEnd}
            disabled={invoices.isLoading}
            onChange={({ detail }) => invoices.goToPage(detail.currentPageIndex - 1)}
            ariaLabels={{
              nextPageLabel: text.pagination.nextPageLabel,
              previousPageLabel: text.pagination.previousPageLabel,
              pageLabel: text.pagination.pageLabel,
            }}
          />
        }
        preferences={
          <CollectionPreferences
            title={text.preferences.title}
            confirmLabel={text.preferences.confirm}
            cancelLabel={text.preferences.cancel}
            closeAriaLabel={text.preferences.close}
            pageSizePreference={{ title: text.preferences.pageSize, options: PAGE_SIZE_OPTIONS }}
            preferences={{ pageSize }}
            onConfirm={({ detail }) => setPageSize(detail.pageSize)}
          />
        }
      />
      {attachmentsOf && (
        <AttachmentsModal
          invoice={attachmentsOf}
          label={invoiceNumber(attachmentsOf)}
          onDismiss={() => setAttachmentsOf(null)}
        />
      )}
    </>
  );
}
