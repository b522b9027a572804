import { useEffect, useId, useMemo, useState } from 'react';
import Autosuggest from '@cloudscape-design/components/autosuggest';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Multiselect, { type MultiselectProps } from '@cloudscape-design/components/multiselect';
import SegmentedControl from '@cloudscape-design/components/segmented-control';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import TokenGroup, { type TokenGroupProps } from '@cloudscape-design/components/token-group';
import {
  ACQUIRER_CONFORMITY_STATES,
  INVOICE_STATUSES,
  INVOICE_STATUS_LABELS,
  INVOICE_TYPES,
  INVOICE_TYPE_LABELS,
  formatDate,
  parseTypedDate,
  routes,
  type AcquirerConformityState,
  type Client,
  type InvoiceStatus,
  type InvoiceType,
  type Level,
} from '@portal/shared';
import { useApi } from '../../api/use-api';
import { DateInput } from '../../components/date-input';
import {
  FILTER_MODES,
  SEARCH_MAX_LENGTH,
  isRuc,
  type FilterMode,
  type FilterPatch,
  type InvoiceFilterState,
} from './invoice-filter';
import { conformityMessages } from './acquirer-conformity/messages';
import { invoicesMessages } from './messages';
import { paymentMessages } from './payment-messages';
import type { FilterChange, ResolvedFilter } from './use-invoice-filter';
import './invoice-filters.css';

const text = invoicesMessages.filters;
const ALL_CLIENTS: SelectProps.Option = { value: '', label: text.allClients };
/** Typing pauses this long before a search or a responsible lookup is sent. */
const TYPING_PAUSE_MS = 400;

const STATUS_OPTIONS: MultiselectProps.Option[] = INVOICE_STATUSES.map((status) => ({
  value: status,
  label: INVOICE_STATUS_LABELS[status],
}));
const TYPE_OPTIONS: MultiselectProps.Option[] = INVOICE_TYPES.map((type) => ({
  value: type,
  label: INVOICE_TYPE_LABELS[type],
}));

const CONFORMITY_OPTIONS: SelectProps.Option[] = [
  { value: '', label: conformityMessages.filter.all },
  ...ACQUIRER_CONFORMITY_STATES.map((state) => ({ value: state, label: conformityMessages.filter.options[state] })),
];

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

/**
 * The options a multiselect change ticked or unticked, against what it showed. The change is applied to
 * the latest filter, not to the list the control showed: two options ticked before the URL caught up
 * both count.
 */
function toggledValues(
  shown: readonly MultiselectProps.Option[],
  chosen: readonly MultiselectProps.Option[],
): string[] {
  const before = new Set(shown.map((option) => option.value));
  const after = new Set(chosen.map((option) => option.value));
  return [...before, ...after].filter((value): value is string => !!value && before.has(value) !== after.has(value));
}

function toggle<T extends string>(current: readonly T[], toggled: readonly T[]): T[] {
  return [
    ...current.filter((value) => !toggled.includes(value)),
    ...toggled.filter((value) => !current.includes(value)),
  ];
}

/** A text the user is typing, kept apart from the committed value until it is sent; follows outside changes. */
function useDraft(committed: string | undefined) {
  const [draft, setDraft] = useState(committed ?? '');
  const [seen, setSeen] = useState(committed);
  if (seen !== committed) {
    setSeen(committed);
    setDraft(committed ?? '');
  }
  return [draft, setDraft] as const;
}

/** The value once typing paused. */
function usePaused(value: string): string {
  const [paused, setPaused] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setPaused(value), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return paused;
}

/** A RUC field: applied as soon as it has 11 digits, removed when emptied; says what is wrong after leaving it. */
function RucField({
  label,
  description,
  value,
  onCommit,
  errorText,
  testId,
}: {
  label: string;
  description: string;
  value: string | undefined;
  onCommit: (ruc: string | undefined) => void;
  errorText?: string;
  testId: string;
}) {
  const [draft, setDraft] = useDraft(value);
  const [touched, setTouched] = useState(false);
  const invalid = draft !== '' && !isRuc(draft);
  return (
    <FormField
      label={label}
      description={description}
      errorText={(touched && invalid ? text.rucInvalid : undefined) ?? errorText}
      data-testid={testId}
    >
      <Input
        value={draft}
        inputMode="numeric"
        placeholder={text.rucPlaceholder}
        invalid={(touched && invalid) || Boolean(errorText)}
        onChange={({ detail }) => {
          const next = detail.value.replace(/\D/g, '').slice(0, 11);
          setDraft(next);
          if (next === '') onCommit(undefined);
          else if (isRuc(next)) onCommit(next);
        }}
        onBlur={() => setTouched(true)}
      />
    </FormField>
  );
}

function SearchField({
  value,
  staff,
  onCommit,
}: {
  value: string | undefined;
  staff: boolean;
  onCommit: (search: string | undefined) => void;
}) {
  const [draft, setDraft] = useDraft(value);
  const paused = usePaused(draft);
  useEffect(() => {
    const next = paused.trim() || undefined;
    if (next !== value) onCommit(next);
    // Only a pause in typing sends the search; an outside change of `value` resets the draft instead.
  }, [paused]);
  return (
    <FormField label={text.search} data-testid="search-filter">
      <Input
        type="search"
        value={draft}
        placeholder={staff ? text.searchPlaceholderStaff : text.searchPlaceholderSupplier}
        clearAriaLabel={text.clear}
        onChange={({ detail }) => setDraft(detail.value.slice(0, SEARCH_MAX_LENGTH))}
        onKeyDown={({ detail }) => {
          if (detail.key === 'Enter') onCommit(draft.trim() || undefined);
        }}
      />
    </FormField>
  );
}

/** One end of "vence entre": applied once a whole date is typed (or chosen), removed when emptied. */
function DueDateField({
  label,
  value,
  onCommit,
  errorText,
  testId,
}: {
  label: string;
  value: string | undefined;
  onCommit: (date: string | undefined) => void;
  errorText?: string;
  testId: string;
}) {
  const [draft, setDraft] = useDraft(value ? formatDate(value) : undefined);
  const [touched, setTouched] = useState(false);
  const parsed = parseTypedDate(draft);
  const invalid = draft.trim() !== '' && !('date' in parsed);
  return (
    <FormField
      label={label}
      errorText={(touched && invalid ? paymentMessages.filter.invalid : undefined) ?? errorText}
      data-testid={testId}
    >
      <DateInput
        value={draft}
        invalid={(touched && invalid) || Boolean(errorText)}
        onChange={(typed) => {
          setDraft(typed);
          const read = parseTypedDate(typed);
          if (typed.trim() === '') onCommit(undefined);
          else if ('date' in read && read.date !== value) onCommit(read.date);
        }}
        onBlur={() => setTouched(true)}
      />
    </FormField>
  );
}

/** "Vence entre": the expected payment date from, to (docs/ap-payment.md), served by the due-date index. */
function DueRangeField({
  from,
  to,
  onCommit,
}: {
  from: string | undefined;
  to: string | undefined;
  onCommit: (range: { dueFrom?: string | undefined; dueTo?: string | undefined }) => void;
}) {
  const t = paymentMessages.filter;
  const reversed = from !== undefined && to !== undefined && from > to;
  return (
    <FormField label={t.label} description={t.description} data-testid="due-filter">
      <div className="invoice-filters-due-range">
        <DueDateField label={t.from} value={from} onCommit={(dueFrom) => onCommit({ dueFrom })} testId="due-from" />
        <DueDateField
          label={t.to}
          value={to}
          onCommit={(dueTo) => onCommit({ dueTo })}
          errorText={reversed ? t.reversed : undefined}
          testId="due-to"
        />
      </div>
    </FormField>
  );
}

/** The responsible filter (GET /employees?acquirer&q): suggestions by name, the employee's id applied. */
function ResponsibleField({
  company,
  value,
  name,
  onCommit,
}: {
  company: string | undefined;
  value: string | undefined;
  name: string | undefined;
  onCommit: (id: string | undefined) => void;
}) {
  const [draft, setDraft] = useDraft(value ? (name ?? value) : undefined);
  const q = usePaused(draft).trim();
  const { data, error, isLoading } = useApi(
    routes.listEmployees,
    company ? { query: { acquirer: company, ...(q ? { q } : {}) } } : null,
    { revalidateOnFocus: false },
  );
  const options = (data?.items ?? []).map((employee) => ({
    value: employee.id,
    label: employee.fullName,
    description: employee.office,
  }));
  return (
    <FormField
      label={text.responsible}
      constraintText={company ? undefined : text.responsibleNeedsClient}
      data-testid="responsible-filter"
    >
      <Autosuggest
        value={draft}
        options={options}
        filteringType="manual"
        disabled={!company}
        placeholder={text.responsiblePlaceholder}
        statusType={isLoading ? 'loading' : error ? 'error' : 'finished'}
        loadingText={text.responsibleLoading}
        errorText={text.responsibleError}
        empty={text.responsibleEmpty}
        hideEnteredTextOption
        clearAriaLabel={text.clear}
        onChange={({ detail }) => {
          setDraft(detail.value);
          if (detail.value === '' && value) onCommit(undefined);
        }}
        onSelect={({ detail }) => {
          if (!detail.selectedOption?.value) return;
          setDraft(detail.selectedOption.label ?? detail.value);
          onCommit(detail.selectedOption.value);
        }}
      />
    </FormField>
  );
}

/** An applied filter, as a removable token: its label, and the change that removes it. */
interface FilterToken {
  readonly item: TokenGroupProps.Item;
  readonly remove: FilterPatch;
}

/**
 * What applies, one token each, in the order of the fields: the tokens under the filters, and how many a phone's
 * 'Filtros' button counts. The names are those known (a company's, the responsible's once loaded).
 */
export function filterTokens(
  level: Level | undefined,
  filter: InvoiceFilterState,
  resolved: Pick<ResolvedFilter, 'staff' | 'acquirerNotAllowed'>,
  names: { readonly clients: readonly Client[]; readonly responsibleName?: string | undefined },
): FilterToken[] {
  const staff = resolved.staff;
  const list: FilterToken[] = [];
  const add = (label: string, remove: FilterPatch) =>
    list.push({ item: { label, dismissLabel: text.remove(label) }, remove });
  if (level === 'SUPPLIER' && filter.client) {
    const name = names.clients.find((client) => client.taxId === filter.client)?.name ?? filter.client;
    add(text.token.client(name), { client: undefined });
  }
  for (const status of filter.invoiceStatus) {
    add(text.token.status(INVOICE_STATUS_LABELS[status]), {
      invoiceStatus: filter.invoiceStatus.filter((value) => value !== status),
    });
  }
  for (const type of filter.invoiceType) {
    add(text.token.type(INVOICE_TYPE_LABELS[type]), {
      invoiceType: filter.invoiceType.filter((value) => value !== type),
    });
  }
  if (staff && filter.office) add(text.token.office(filter.office), { office: undefined });
  if (staff && filter.responsible) {
    add(text.token.responsible(names.responsibleName ?? filter.responsible), { responsible: undefined });
  }
  if (filter.acquirer && !resolved.acquirerNotAllowed)
    add(text.token.acquirer(filter.acquirer), { acquirer: undefined });
  if (staff && filter.issuer) add(text.token.issuer(filter.issuer), { issuer: undefined });
  if (filter.search) add(text.token.search(filter.search), { search: undefined });
  if (filter.dueFrom || filter.dueTo) {
    const day = (date: string | undefined) => (date ? formatDate(date) : null);
    add(paymentMessages.filter.token(day(filter.dueFrom), day(filter.dueTo)), {
      dueFrom: undefined,
      dueTo: undefined,
    });
  }
  if (filter.observed) add(text.token.observed, { observed: undefined });
  if (filter.acquirerConformity) {
    add(conformityMessages.filter.token(conformityMessages.filter.options[filter.acquirerConformity]), {
      acquirerConformity: undefined,
    });
  }
  return list;
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

  const offices = useApi(routes.listOfficeLocations, staff && company ? { query: { taxId: company } } : null, {
    revalidateOnFocus: false,
  });
  const officeOptions = useMemo<SelectProps.Option[]>(() => {
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
  const selectedTypes = TYPE_OPTIONS.filter((option) => filter.invoiceType.includes(option.value as InvoiceType));

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
                  <ColumnLayout columns={3} minColumnWidth={280}>
                    <FormField label={text.type} data-testid="type-filter">
                      <Multiselect
                        options={TYPE_OPTIONS}
                        selectedOptions={selectedTypes}
                        hideTokens
                        placeholder={
                          selectedTypes.length > 0 ? text.selected(selectedTypes.length) : text.typePlaceholder
                        }
                        onChange={({ detail }) => {
                          const toggled = toggledValues(selectedTypes, detail.selectedOptions);
                          onChange((latest) => ({
                            invoiceType: toggle(latest.invoiceType, toggled as InvoiceType[]),
                          }));
                        }}
                      />
                    </FormField>
                    {staff && (
                      <FormField label={text.office} data-testid="office-filter">
                        <Select
                          options={officeOptions}
                          selectedOption={
                            officeOptions.find((option) => option.value === (filter.office ?? '')) ?? null
                          }
                          onChange={({ detail }) => onChange({ office: detail.selectedOption.value || undefined })}
                          statusType={offices.isLoading ? 'loading' : offices.error ? 'error' : 'finished'}
                          loadingText={text.officesLoading}
                          errorText={text.officesError}
                          empty={text.officesEmpty}
                          disabled={!company}
                        />
                      </FormField>
                    )}
                    <DueRangeField from={filter.dueFrom} to={filter.dueTo} onCommit={(range) => onChange(range)} />
                    <FormField
                      label={text.observed}
                      description={text.observedDescription}
                      data-testid="observed-filter"
                    >
                      <Checkbox
                        checked={Boolean(filter.observed)}
                        onChange={({ detail }) => onChange({ observed: detail.checked || undefined })}
                      >
                        {text.observedOnly}
                      </Checkbox>
                    </FormField>
                    <FormField label={conformityMessages.filter.label} data-testid="acquirer-conformity-filter">
                      <Select
                        options={CONFORMITY_OPTIONS}
                        selectedOption={
                          CONFORMITY_OPTIONS.find((option) => option.value === (filter.acquirerConformity ?? '')) ??
                          null
                        }
                        onChange={({ detail }) =>
                          onChange({
                            acquirerConformity: (detail.selectedOption.value || undefined) as
                              AcquirerConformityState | undefined,
                          })
                        }
                      />
                    </FormField>
                    {staff && (
                      <ResponsibleField
                        company={company}
                        value={filter.responsible}
                        name={responsibleName}
                        onCommit={(responsible) => onChange({ responsible })}
                      />
                    )}
                    <RucField
                      label={text.acquirer}
                      description={text.acquirerDescription}
                      value={filter.acquirer}
                      onCommit={(acquirer) => onChange({ acquirer })}
                      errorText={resolved.acquirerNotAllowed ? text.acquirerNotAllowed : undefined}
                      testId="acquirer-filter"
                    />
                    {staff && (
                      <RucField
                        label={text.issuer}
                        description={text.issuerDescription}
                        value={filter.issuer}
                        onCommit={(issuer) => onChange({ issuer })}
                        testId="issuer-filter"
                      />
                    )}
                    {staff && (
                      <FormField label={text.mode} description={text.modeDescription}>
                        <SegmentedControl
                          label={text.mode}
                          selectedId={filter.mode}
                          options={FILTER_MODES.map((mode) => ({ id: mode, text: text.modes[mode] }))}
                          onChange={({ detail }) => onChange({ mode: detail.selectedId as FilterMode })}
                        />
                      </FormField>
                    )}
                  </ColumnLayout>
                )}
              </div>
            </SpaceBetween>
          )}
        </div>

        {tokens.length > 0 && (
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
            <Button variant="normal" onClick={props.onClear}>
              {text.clear}
            </Button>
          </SpaceBetween>
        )}
      </SpaceBetween>
    </section>
  );
}
