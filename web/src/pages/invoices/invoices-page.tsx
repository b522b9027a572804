import { useMemo, useState } from 'react';
import type { Client, Level } from '@portal/shared';
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
import { chooseCompany, resolveActiveCompany, useChosenCompany } from '../../session/active-company';
import { useCurrentUser } from '../../session/use-current-user';
import { INVOICE_COLUMNS, invoiceNumber } from './columns';
import { useInvoices, type InvoiceFilter } from './use-invoices';

const text = messages.invoices;
const ALL_CLIENTS: SelectProps.Option = { value: '', label: text.allClients };

/**
 * The companies a level may pick in the client filter. Suppliers may look at all their clients at
 * once; managers only at the companies of their taxId list; admins at any company, one at a time.
 */
function clientOptions(level: Level | undefined, taxIds: readonly string[], clients: Client[]): SelectProps.Option[] {
  const toOption = (client: Client) => ({ value: client.taxId, label: client.name, description: client.taxId });
  if (level === 'SUPPLIER') return [ALL_CLIENTS, ...clients.map(toOption)];
  if (level === 'MANAGER') return clients.filter((client) => taxIds.includes(client.taxId)).map(toOption);
  return clients.map(toOption);
}

function ClientSelect({
  options,
  value,
  onChange,
  isLoading,
  error,
}: {
  options: SelectProps.Option[];
  value: string | undefined;
  onChange: (taxId: string | undefined) => void;
  isLoading: boolean;
  error: Error | undefined;
}) {
  const selected = options.find((option) => option.value === (value ?? '')) ?? null;
  return (
    <div style={{ maxWidth: 360 }} data-testid="client-filter">
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
  const { user, taxIds } = useCurrentUser();
  const { clients, isLoading: clientsLoading, error: clientsError } = useClients();
  const chosen = useChosenCompany();
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const level = user?.level;
  const options = useMemo(() => clientOptions(level, taxIds, clients), [level, taxIds, clients]);

  // A manager's filter is its active company (the same one the header menu switches); an admin must
  // name a company, the first one until it picks another; a supplier starts with all its clients.
  const client =
    level === 'MANAGER'
      ? (resolveActiveCompany(taxIds, chosen) ?? undefined)
      : level === 'ADMIN'
        ? (picked ?? clients[0]?.taxId)
        : picked;
  const onClientChange = (taxId: string | undefined) =>
    level === 'MANAGER' ? chooseCompany(taxId ?? null) : setPicked(taxId);
  const waitingForClient = level === 'ADMIN' && client === undefined;
  const filter = useMemo<InvoiceFilter | null>(
    () => (waitingForClient ? null : client ? { client } : {}),
    [client, waitingForClient],
  );
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
      loading={invoices.isLoading || (waitingForClient && clientsLoading)}
      loadingText={text.loading}
      wrapLines={false}
      filter={
        <ClientSelect
          options={options}
          value={client}
          onChange={onClientChange}
          isLoading={clientsLoading}
          error={clientsError}
        />
      }
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
