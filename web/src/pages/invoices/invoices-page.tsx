import { useMemo, useState } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import Pagination from '@cloudscape-design/components/pagination';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import { errorMessage } from '../../api/client';
import { useClients } from '../../hooks/use-clients';
import { messages } from '../../messages';
import { INVOICE_COLUMNS, invoiceNumber } from './columns';
import { useInvoices, type InvoiceFilter } from './use-invoices';

const text = messages.invoices;
const ALL_CLIENTS: SelectProps.Option = { value: '', label: text.allClients };

function ClientSelect({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (taxId: string | undefined) => void;
}) {
  const { clients, isLoading, error } = useClients();
  const options = useMemo<SelectProps.Option[]>(
    () => [
      ALL_CLIENTS,
      ...clients.map((client) => ({ value: client.taxId, label: client.name, description: client.taxId })),
    ],
    [clients],
  );
  const selected = options.find((option) => option.value === (value ?? '')) ?? ALL_CLIENTS;
  return (
    <div style={{ maxWidth: 360 }}>
      <Select
        inlineLabelText={text.clientFilterLabel}
        placeholder={text.clientFilterPlaceholder}
        options={options}
        selectedOption={selected}
        onChange={({ detail }) => onChange(detail.selectedOption.value || undefined)}
        filteringType="auto"
        statusType={isLoading ? 'loading' : error ? 'error' : 'finished'}
        loadingText={text.clientsLoading}
        errorText={text.clientsError}
      />
    </div>
  );
}

/** '/' and '/invoices': the invoices of the active company, a page at a time (spec §2 Invoices). */
export default function InvoicesPage() {
  const [client, setClient] = useState<string | undefined>(undefined);
  const filter = useMemo<InvoiceFilter>(() => (client ? { client } : {}), [client]);
  const invoices = useInvoices(filter);

  return (
    <Table
      variant="full-page"
      stickyHeader
      enableKeyboardNavigation
      ariaLabels={{ tableLabel: text.tableLabel }}
      header={
        <Header
          variant="awsui-h1-sticky"
          description={text.description}
          actions={
            <Button
              iconName="refresh"
              ariaLabel={text.refresh}
              loading={invoices.isRefreshing}
              onClick={() => void invoices.refresh()}
            />
          }
        >
          {text.title}
        </Header>
      }
      columnDefinitions={INVOICE_COLUMNS}
      items={invoices.items}
      trackBy={(invoice) => `${invoice.supplierId}#${invoice.type}#${invoiceNumber(invoice)}`}
      loading={invoices.isLoading}
      loadingText={text.loading}
      wrapLines={false}
      filter={<ClientSelect value={client} onChange={setClient} />}
      empty={
        invoices.error ? (
          <Box textAlign="center" padding="m">
            <SpaceBetween size="s">
              <StatusIndicator type="error">
                <span data-testid="invoices-error">{errorMessage(invoices.error)}</span>
              </StatusIndicator>
              <Button onClick={() => void invoices.refresh()}>{messages.session.retry}</Button>
            </SpaceBetween>
          </Box>
        ) : (
          <Box textAlign="center" color="inherit" padding="m">
            {text.empty}
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
    />
  );
}
