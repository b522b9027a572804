import ColumnLayout from '@cloudscape-design/components/column-layout';
import Checkbox from '@cloudscape-design/components/checkbox';
import FormField from '@cloudscape-design/components/form-field';
import Multiselect, { type MultiselectProps } from '@cloudscape-design/components/multiselect';
import SegmentedControl from '@cloudscape-design/components/segmented-control';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import {
  ACQUIRER_CONFORMITY_STATES,
  INVOICE_TYPES,
  INVOICE_TYPE_LABELS,
  type AcquirerConformityState,
  type InvoiceType,
} from '@portal/shared';
import { FILTER_MODES, type FilterMode, type InvoiceFilterState } from './invoice-filter';
import { DueRangeField, ResponsibleField, RucField, toggle, toggledValues } from './invoice-filter-fields';
import { conformityMessages } from './acquirer-conformity/messages';
import { invoicesMessages } from './messages';
import type { FilterChange, ResolvedFilter } from './use-invoice-filter';

const text = invoicesMessages.filters;

const TYPE_OPTIONS: MultiselectProps.Option[] = INVOICE_TYPES.map((type) => ({
  value: type,
  label: INVOICE_TYPE_LABELS[type],
}));

const CONFORMITY_OPTIONS: SelectProps.Option[] = [
  { value: '', label: conformityMessages.filter.all },
  ...ACQUIRER_CONFORMITY_STATES.map((state) => ({ value: state, label: conformityMessages.filter.options[state] })),
];

/** The company's offices as the office filter offers them, and how their lookup went. */
export interface OfficeChoices {
  readonly options: SelectProps.Option[];
  readonly isLoading: boolean;
  readonly error: unknown;
}

export interface MoreFiltersProps {
  readonly filter: InvoiceFilterState;
  /** Whether the staff filters show, the company they look up and whether the acquirer typed is allowed. */
  readonly resolved: Pick<ResolvedFilter, 'staff' | 'company' | 'acquirerNotAllowed'>;
  readonly offices: OfficeChoices;
  /** The applied responsible's name, once the company's employees are loaded. */
  readonly responsibleName: string | undefined;
  readonly onChange: (change: FilterChange) => void;
}

/**
 * 'Más filtros': type, office, due dates, observed, SUNAT conformity, responsible, acquirer, issuer and the
 * HES/MIGO mode, three to a row.
 */
export function MoreFilters({ filter, resolved, offices, responsibleName, onChange }: MoreFiltersProps) {
  const { staff, company, acquirerNotAllowed } = resolved;
  const selectedTypes = TYPE_OPTIONS.filter((option) => filter.invoiceType.includes(option.value as InvoiceType));
  return (
    <ColumnLayout columns={3} minColumnWidth={280}>
      <FormField label={text.type} data-testid="type-filter">
        <Multiselect
          options={TYPE_OPTIONS}
          selectedOptions={selectedTypes}
          hideTokens
          placeholder={selectedTypes.length > 0 ? text.selected(selectedTypes.length) : text.typePlaceholder}
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
            options={offices.options}
            selectedOption={offices.options.find((option) => option.value === (filter.office ?? '')) ?? null}
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
      <FormField label={text.observed} description={text.observedDescription} data-testid="observed-filter">
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
            CONFORMITY_OPTIONS.find((option) => option.value === (filter.acquirerConformity ?? '')) ?? null
          }
          onChange={({ detail }) =>
            onChange({
              acquirerConformity: (detail.selectedOption.value || undefined) as AcquirerConformityState | undefined,
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
        errorText={acquirerNotAllowed ? text.acquirerNotAllowed : undefined}
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
  );
}
