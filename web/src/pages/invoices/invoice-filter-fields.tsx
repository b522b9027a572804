import { type MultiselectProps } from '@cloudscape-design/components/multiselect';
import { useEffect, useState } from 'react';
import Autosuggest from '@cloudscape-design/components/autosuggest';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import { formatDate, parseTypedDate, routes } from '@portal/shared';
import { useApi } from '../../api/use-api';
import { employeeOption } from '../../components/employee-option';
import { useDebounced } from '../../hooks/use-debounced';
import { DateInput } from '../../components/date-input';
import { SEARCH_MAX_LENGTH, isRuc } from './invoice-filter';
import { invoicesMessages } from './messages';
import { paymentMessages } from './payment-messages';

const text = invoicesMessages.filters;
/** Typing pauses this long before a search or a responsible lookup is sent. */
const TYPING_PAUSE_MS = 400;

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

/** A RUC field: applied as soon as it has 11 digits, removed when emptied; says what is wrong after leaving it. */
export function RucField({
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

export function SearchField({
  value,
  staff,
  onCommit,
}: {
  value: string | undefined;
  staff: boolean;
  onCommit: (search: string | undefined) => void;
}) {
  const [draft, setDraft] = useDraft(value);
  const paused = useDebounced(draft, TYPING_PAUSE_MS);
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
export function DueRangeField({
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
export function ResponsibleField({
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
  const q = useDebounced(draft, TYPING_PAUSE_MS).trim();
  const { data, error, isLoading } = useApi(
    routes.listEmployees,
    company ? { query: { acquirer: company, ...(q ? { q } : {}) } } : null,
    { revalidateOnFocus: false },
  );
  const options = (data?.items ?? []).map(employeeOption);
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

/**
 * The options a multiselect change ticked or unticked, against what it showed. The change is applied to
 * the latest filter, not to the list the control showed: two options ticked before the URL caught up
 * both count.
 */
export function toggledValues(
  shown: readonly MultiselectProps.Option[],
  chosen: readonly MultiselectProps.Option[],
): string[] {
  const before = new Set(shown.map((option) => option.value));
  const after = new Set(chosen.map((option) => option.value));
  return [...before, ...after].filter((value): value is string => !!value && before.has(value) !== after.has(value));
}

export function toggle<T extends string>(current: readonly T[], toggled: readonly T[]): T[] {
  return [
    ...current.filter((value) => !toggled.includes(value)),
    ...toggled.filter((value) => !current.includes(value)),
  ];
}
