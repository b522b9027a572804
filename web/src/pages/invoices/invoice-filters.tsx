import { useId, useMemo } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Multiselect, { type MultiselectProps } from '@cloudscape-design/components/multiselect';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import TokenGroup from '@cloudscape-design/components/token-group';
import {
  INVOICE_STATUSES,
  INVOICE_STATUS_LABELS,
  routes,
  type Client,
  type InvoiceStatus,
  type Level,
} from '@portal/shared';
import { useApi } from '../../api/use-api';
import { type InvoiceFilterState } from './invoice-filter';
import { invoicesMessages } from './messages';
import type { FilterChange, ResolvedFilter } from './use-invoice-filter';
import './invoice-filters.css';
import { SearchField, toggle, toggledValues } from './invoice-filter-fields';
import { filterTokens } from './invoice-filter-tokens';
import { MoreFilters, type OfficeChoices } from './more-filters';

export { filterTokens } from './invoice-filter-tokens';

const text = invoicesMessages.filters;
const ALL_CLIENTS: SelectProps.Option = { value: '', label: text.allClients };

const STATUS_OPTIONS: MultiselectProps.Option[] = INVOICE_STATUSES.map((status) => ({
  value: status,
  label: INVOICE_STATUS_LABELS[status],
}));
/**
 * The companies a level may pick. Suppliers may look at all their clients at once; managers only at
 * the companies of their taxId list; admins at any company, one at a time.
 */
function clientOptions(level: Level | undefined, taxIds: readonly string[], clients: readonly Client[]) {
  const toOption = (client: Client): SelectProps.Option => ({
    value: client.taxId,
    label: client.name,
    description: client.taxId,
  });
  if (level === 'SUPPLIER') return [ALL_CLIENTS, ...clients.map(toOption)];
  if (level === 'MANAGER') return clients.filter((client) => taxIds.includes(client.taxId)).map(toOption);
  return clients.map(toOption);
}

/** On a phone, the button the filters wait behind (InvoiceFilters' region `controls`), with how many apply. */
export function FiltersToggle({
  shown,
  onShownChange,
  controls,
  active,
}: {
  shown: boolean;
  onShownChange: (shown: boolean) => void;
  controls: string;
  active: number;
}) {
  return (
    <Button iconName="filter" ariaExpanded={shown} ariaControls={controls} onClick={() => onShownChange(!shown)}>
      {active > 0 ? text.showActive(active) : text.show}
    </Button>
  );
}

export interface InvoiceFiltersProps {
  readonly level: Level | undefined;
  readonly taxIds: readonly string[];
  readonly clients: readonly Client[];
  readonly clientsLoading: boolean;
  readonly clientsError: Error | undefined;
  readonly filter: InvoiceFilterState;
  readonly resolved: ResolvedFilter;
  readonly onChange: (change: FilterChange) => void;
  /** The client select of a manager switches its active company. */
  readonly onClientChange: (taxId: string | undefined) => void;
  readonly onClear: () => void;
  readonly expanded: boolean;
  readonly onExpandedChange: (expanded: boolean) => void;
  /**
   * A phone: the filters wait behind a 'Filtros' button (FiltersToggle, among the list's actions), so that the first
   * screen shows invoices; one under another once shown.
   */
  readonly narrow: boolean;
  /** Whether the filters show (always, but on a phone once asked for). */
  readonly shown: boolean;
  /** The id of the fields' region, which the phone's 'Filtros' button controls. */
  readonly regionId: string;
}

/**
 * The filters of spec §2 Invoices in one row, what a person narrows by every day (company, status, search), then
 * 'Más filtros' for the rest: type, office, due dates, observed, SUNAT conformity, responsible, acquirer, issuer and
 * the HES/MIGO mode. What is applied shows as removable tokens, also while the filters are put away.
 */
export function InvoiceFilters(props: InvoiceFiltersProps) {
  const { level, filter, resolved, onChange } = props;
  const staff = resolved.staff;
  const moreId = useId();
  const company = resolved.company;

  const options = useMemo(
    () => clientOptions(level, props.taxIds, props.clients),
    [level, props.taxIds, props.clients],
  );
  const selectedClient = options.find((option) => option.value === (resolved.selectedClient ?? '')) ?? null;

  const offices = useOfficeChoices(staff, company);

  // Every responsible of the company, to name the one applied (the URL holds its id).
  // The same call as the suggestions before anything is typed, so opening the filters caches it.
  const employees = useApi(
    routes.listEmployees,
    staff && company && (props.expanded || filter.responsible) ? { query: { acquirer: company } } : null,
    { revalidateOnFocus: false },
  );
  const responsibleName = employees.data?.items.find((employee) => employee.id === filter.responsible)?.fullName;

  const selectedStatuses = STATUS_OPTIONS.filter((option) =>
    filter.invoiceStatus.includes(option.value as InvoiceStatus),
  );

  const tokens = useMemo(
    () => filterTokens(level, filter, resolved, { clients: props.clients, responsibleName }),
    [level, filter, resolved, props.clients, responsibleName],
  );

  const clientField = (
    <FormField label={text.client} data-testid="client-filter">
      <Select
        options={options}
        selectedOption={selectedClient}
        onChange={({ detail }) => props.onClientChange(detail.selectedOption.value || undefined)}
        filteringType="auto"
        placeholder={text.allClients}
        statusType={props.clientsLoading ? 'loading' : props.clientsError ? 'error' : 'finished'}
        loadingText={text.clientsLoading}
        errorText={text.clientsError}
      />
    </FormField>
  );
  const statusField = (
    <FormField label={text.status} data-testid="status-filter">
      <Multiselect
        options={STATUS_OPTIONS}
        selectedOptions={selectedStatuses}
        hideTokens
        placeholder={selectedStatuses.length > 0 ? text.selected(selectedStatuses.length) : text.statusPlaceholder}
        onChange={({ detail }) => {
          const toggled = toggledValues(selectedStatuses, detail.selectedOptions);
          onChange((latest) => ({ invoiceStatus: toggle(latest.invoiceStatus, toggled as InvoiceStatus[]) }));
        }}
      />
    </FormField>
  );

  return (
    <section aria-label={text.regionLabel}>
      <SpaceBetween size="s">
        <div id={props.regionId} hidden={!props.shown}>
          {props.shown && (
            <SpaceBetween size="s">
              {/* The first row: what a person narrows by every day; the rest waits behind 'Más filtros'. */}
              <div className={props.narrow ? 'invoice-filters-stacked' : 'invoice-filters-first-row'}>
                {clientField}
                {statusField}
                <SearchField value={filter.search} staff={staff} onCommit={(search) => onChange({ search })} />
                <Button
                  variant="link"
                  iconName={props.expanded ? 'angle-up' : 'angle-down'}
                  ariaExpanded={props.expanded}
                  ariaControls={moreId}
                  onClick={() => props.onExpandedChange(!props.expanded)}
                >
                  {props.expanded ? text.less : text.more}
                </Button>
              </div>

              <div id={moreId} hidden={!props.expanded}>
                {props.expanded && (
                  <MoreFilters
                    filter={filter}
                    resolved={resolved}
                    offices={offices}
                    responsibleName={responsibleName}
                    onChange={onChange}
                  />
                )}
              </div>
            </SpaceBetween>
          )}
        </div>

        <AppliedFilters tokens={tokens} onChange={onChange} onClear={props.onClear} />
      </SpaceBetween>
    </section>
  );
}

/** What applies, as removable tokens, and 'Limpiar filtros'. */
function AppliedFilters({
  tokens,
  onChange,
  onClear,
}: {
  tokens: ReturnType<typeof filterTokens>;
  onChange: (change: FilterChange) => void;
  onClear: () => void;
}) {
  if (tokens.length === 0) return null;
  return (
    <SpaceBetween size="xs" direction="horizontal" alignItems="center">
      <Box variant="awsui-key-label" tagOverride="span">
        {text.activeLabel}
      </Box>
      <TokenGroup
        items={tokens.map((token) => token.item)}
        onDismiss={({ detail }) => {
          const token = tokens[detail.itemIndex];
          if (token) onChange(token.remove);
        }}
        disableOuterPadding
      />
      <Button variant="normal" onClick={onClear}>
        {text.clear}
      </Button>
    </SpaceBetween>
  );
}

/** The company's offices for the office filter (staff only), each with its locations. */
function useOfficeChoices(staff: boolean, company: string | undefined): OfficeChoices {
  const offices = useApi(routes.listOfficeLocations, staff && company ? { query: { taxId: company } } : null, {
    revalidateOnFocus: false,
  });
  const options = useMemo<SelectProps.Option[]>(() => {
    const byOffice = new Map<string, string[]>();
    for (const location of offices.data?.items ?? []) {
      byOffice.set(location.office, [...(byOffice.get(location.office) ?? []), location.location]);
    }
    return [
      { value: '', label: text.officePlaceholder },
      ...[...byOffice].map(([office, locations]) => ({
        value: office,
        label: office,
        description: locations.join(', '),
      })),
    ];
  }, [offices.data]);
  return { options, isLoading: offices.isLoading, error: offices.error };
}
