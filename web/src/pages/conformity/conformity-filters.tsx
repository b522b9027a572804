import { useState } from 'react';
import Autosuggest from '@cloudscape-design/components/autosuggest';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import { routes } from '@portal/shared';
import { useApi } from '../../api/use-api';
import { employeeOption } from '../../components/employee-option';
import { useDebounced } from '../../hooks/use-debounced';
import { conformityMessages } from './messages';

const text = conformityMessages.filters;
const RUC = /^\d{11}$/;
const SEARCH_DELAY_MS = 300;

/** What the user has typed in the two filters and what of it applies to the listing. */
export interface ConformityFilterInput {
  /** Text of the responsible field: a name being searched or the name of the employee chosen. */
  readonly responsibleText: string;
  /** Id of the employee chosen from the suggestions; only a chosen one filters. */
  readonly responsible: string | undefined;
  readonly issuerText: string;
}

export const NO_FILTER: ConformityFilterInput = { responsibleText: '', responsible: undefined, issuerText: '' };

/** The issuer RUC that applies: only a complete one (11 digits). */
export function appliedIssuer(issuerText: string): string | undefined {
  const ruc = issuerText.trim();
  return RUC.test(ruc) ? ruc : undefined;
}

/** The company whose documents are listed, the filters as typed, and their change. */
interface ConformityFilterProps {
  readonly acquirer: string;
  readonly value: ConformityFilterInput;
  readonly onChange: (next: ConformityFilterInput) => void;
}

/**
 * The responsible of the purchase order, searched by name in the company's employees
 * (GET /employees?acquirer&q) as the user types; choosing one filters the listing by its id.
 */
function ResponsibleFilter({ acquirer, value, onChange }: ConformityFilterProps) {
  const q = useDebounced(value.responsibleText.trim(), SEARCH_DELAY_MS);
  // Once chosen, the field holds the employee's full name: no need to search it again.
  const searching = value.responsible === undefined;
  const employees = useApi(routes.listEmployees, searching ? { query: { acquirer, ...(q ? { q } : {}) } } : null, {
    revalidateOnFocus: false,
  });
  const options = (employees.data?.items ?? []).map(employeeOption);

  return (
    <FormField
      label={text.responsibleLabel}
      constraintText={value.responsibleText && !value.responsible ? text.responsibleHint : undefined}
    >
      <Autosuggest
        value={value.responsibleText}
        onChange={({ detail }) => onChange({ ...value, responsibleText: detail.value, responsible: undefined })}
        onSelect={({ detail }) =>
          onChange({
            ...value,
            responsible: detail.value,
            responsibleText: detail.selectedOption?.label ?? detail.value,
          })
        }
        options={options}
        filteringType="manual"
        hideEnteredTextOption
        placeholder={text.responsiblePlaceholder}
        clearAriaLabel={text.responsibleClear}
        selectedAriaLabel={text.responsibleSelected}
        statusType={employees.isLoading ? 'loading' : employees.error ? 'error' : 'finished'}
        loadingText={text.responsibleLoading}
        errorText={text.responsibleError}
        empty={text.responsibleEmpty}
        filteringResultsText={(matches) => text.responsibleResults(matches)}
      />
    </FormField>
  );
}

/** The two filters of spec §2 "Service sheets": PO responsible and issuer RUC. */
export function ConformityFilters({ acquirer, value, onChange }: ConformityFilterProps) {
  const [issuerTouched, setIssuerTouched] = useState(false);
  const issuerInvalid = issuerTouched && value.issuerText.trim() !== '' && !appliedIssuer(value.issuerText);

  return (
    <ColumnLayout columns={2}>
      <ResponsibleFilter acquirer={acquirer} value={value} onChange={onChange} />
      <FormField label={text.issuerLabel} errorText={issuerInvalid ? text.issuerInvalid : undefined}>
        <Input
          type="search"
          inputMode="numeric"
          value={value.issuerText}
          onChange={({ detail }) => {
            onChange({ ...value, issuerText: detail.value });
            if (appliedIssuer(detail.value) || detail.value === '') setIssuerTouched(false);
          }}
          onBlur={() => setIssuerTouched(true)}
          placeholder={text.issuerPlaceholder}
          clearAriaLabel={text.issuerClear}
          nativeInputAttributes={{ maxLength: 11 }}
          data-testid="issuer-filter"
        />
      </FormField>
    </ColumnLayout>
  );
}
