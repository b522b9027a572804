import { useMemo, useState } from 'react';
import Cards from '@cloudscape-design/components/cards';
import Header from '@cloudscape-design/components/header';
import TextFilter from '@cloudscape-design/components/text-filter';
import { normalizeForSearch, routes, type Client } from '@portal/shared';
import { useApi } from '../../api/use-api';
import { TableEmptyState } from '../../components/table-empty-state';
import { avatarColourOf, initialsOf } from './initials';
import { clientsMessages as text } from './messages';

const LOGO_SIZE = 48;

/**
 * The company's logo when it has one, else an avatar with its initials. Both are images named after
 * the company; the avatar is drawn here, never fetched.
 */
function ClientLogo({ client }: { client: Client }) {
  const [broken, setBroken] = useState(false);
  const label = text.logo(client.name);
  if (client.logo && !broken) {
    return (
      <img
        src={client.logo}
        alt={label}
        width={LOGO_SIZE}
        height={LOGO_SIZE}
        style={{ objectFit: 'contain', borderRadius: 8 }}
        onError={() => setBroken(true)}
      />
    );
  }
  return (
    <div
      role="img"
      aria-label={label}
      data-testid="client-avatar"
      style={{
        width: LOGO_SIZE,
        height: LOGO_SIZE,
        flex: 'none',
        borderRadius: '50%',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        background: avatarColourOf(client.name),
        color: '#ffffff',
        fontWeight: 700,
        fontSize: 18,
      }}
    >
      <span aria-hidden="true">{initialsOf(client.name)}</span>
    </div>
  );
}

function matches(client: Client, filter: string): boolean {
  const wanted = normalizeForSearch(filter);
  if (!wanted) return true;
  return normalizeForSearch(client.name).includes(wanted) || client.taxId.includes(filter.trim());
}

/** '/clients' ('Sociedades', spec §2): the group's companies as cards with RUC, name and address. */
export default function ClientsPage() {
  // The same call as the header's company names: one request, shared through SWR.
  const { data, error, isLoading, mutate } = useApi(routes.listClients, {}, { revalidateOnFocus: false });
  const [filter, setFilter] = useState('');
  const clients = useMemo(() => data?.items ?? [], [data]);
  const shown = useMemo(() => clients.filter((client) => matches(client, filter)), [clients, filter]);

  return (
    <Cards
      variant="full-page"
      stickyHeader
      ariaLabels={{ itemSelectionLabel: () => '', selectionGroupLabel: text.cardsLabel, cardsLabel: text.cardsLabel }}
      items={error ? [] : shown}
      trackBy="taxId"
      loading={isLoading}
      loadingText={text.loading}
      cardsPerRow={[{ cards: 1 }, { minWidth: 640, cards: 2 }, { minWidth: 1040, cards: 3 }]}
      header={
        <Header
          variant="awsui-h1-sticky"
          counter={data ? text.counter(shown.length, clients.length) : undefined}
          description={text.description}
        >
          {text.title}
        </Header>
      }
      filter={
        <TextFilter
          filteringText={filter}
          onChange={({ detail }) => setFilter(detail.filteringText)}
          filteringPlaceholder={text.filterPlaceholder}
          filteringAriaLabel={text.filterLabel}
          filteringClearAriaLabel={text.filterClear}
          countText={filter ? text.matches(shown.length) : undefined}
          disabled={isLoading || Boolean(error)}
        />
      }
      cardDefinition={{
        header: (client) => (
          // Side by side at any width: a long name wraps beside its logo, not under it.
          <div style={{ display: 'flex', alignItems: 'center', gap: 12 }}>
            <ClientLogo client={client} />
            <span data-testid="client-name" style={{ minWidth: 0 }}>
              {client.name}
            </span>
          </div>
        ),
        sections: [
          {
            id: 'taxId',
            header: text.taxId,
            content: (client) => <span data-testid="client-tax-id">{client.taxId}</span>,
          },
          {
            id: 'address',
            header: text.address,
            content: (client) => <span data-testid="client-address">{client.address}</span>,
          },
          {
            // How the company pays (docs/ap-payment.md): what the expected payment dates and net to pay follow.
            id: 'payments',
            header: text.payments,
            content: (client) => (
              <span data-testid="client-payments">
                {[
                  client.paymentRunDays?.length ? text.paymentRunDays(client.paymentRunDays) : text.noPaymentRun,
                  client.igvRetentionAgent ? text.retentionAgent : null,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
            ),
          },
        ],
      }}
      empty={
        <TableEmptyState
          testId="clients"
          error={error}
          onRetry={mutate}
          message={filter && clients.length > 0 ? text.noMatch : text.empty}
          action={filter && clients.length > 0 ? { text: text.clearFilter, onClick: () => setFilter('') } : undefined}
        />
      }
    />
  );
}
