import { useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import Autosuggest, { type AutosuggestProps } from '@cloudscape-design/components/autosuggest';
import { errorMessage } from '../../api/client';
import { invoicesIssuerHref, invoicesSearchHref } from './invoice-links';
import { headerMessages } from './messages';
import { useSupplierSearch } from './use-supplier-search';

const text = headerMessages.search;
/** Supplier options carry this prefix; what the user types is never mistaken for one (it is the entered-text option). */
const SUPPLIER_VALUE = 'proveedor:';

/**
 * The header search of spec §2. What the user types searches invoices by number, RUC or business
 * name (the entered-text option, or Enter); staff also get the suppliers whose RUC or business name
 * start with it, and choosing one opens the invoices that supplier issued.
 */
export function HeaderSearch({ searchesSuppliers }: { searchesSuppliers: boolean }) {
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  // Enter on a highlighted option fires onSelect and then onKeyDown: the second must not search again.
  const justSelected = useRef(false);
  const suppliers = useSupplierSearch(value, searchesSuppliers);

  const options = useMemo<AutosuggestProps.Options>(
    () =>
      suppliers.suppliers.length === 0
        ? []
        : [
            {
              label: text.suppliersGroup,
              options: suppliers.suppliers.map((supplier) => ({
                value: `${SUPPLIER_VALUE}${supplier.taxId}`,
                label: supplier.name,
                description: text.supplierDescription(supplier.taxId),
              })),
            },
          ],
    [suppliers.suppliers],
  );

  const go = (href: string) => {
    setValue('');
    navigate(href);
  };

  const searchInvoices = (entered: string) => {
    if (entered.trim()) go(invoicesSearchHref(entered));
  };

  const statusType: AutosuggestProps.StatusType = !searchesSuppliers
    ? 'finished'
    : suppliers.isLoading
      ? 'loading'
      : suppliers.error
        ? 'error'
        : 'finished';

  return (
    <div role="search" aria-label={text.label}>
      <Autosuggest
        value={value}
        onChange={({ detail }) => setValue(detail.value)}
        onSelect={({ detail }) => {
          justSelected.current = true;
          queueMicrotask(() => (justSelected.current = false));
          if (detail.selectedOption?.value?.startsWith(SUPPLIER_VALUE)) {
            go(invoicesIssuerHref(detail.selectedOption.value.slice(SUPPLIER_VALUE.length)));
          } else {
            searchInvoices(detail.value);
          }
        }}
        onKeyDown={({ detail }) => {
          if (detail.key === 'Enter' && !justSelected.current) searchInvoices(value);
        }}
        options={options}
        filteringType="manual"
        enteredTextLabel={text.invoicesOption}
        placeholder={searchesSuppliers ? text.placeholderStaff : text.placeholderSupplier}
        ariaLabel={searchesSuppliers ? text.placeholderStaff : text.placeholderSupplier}
        clearAriaLabel={text.clear}
        statusType={statusType}
        loadingText={text.loading}
        errorText={suppliers.error ? `${text.error} ${errorMessage(suppliers.error)}` : text.error}
        recoveryText={text.retry}
        onLoadItems={({ detail }) => {
          // The recovery button of the error state asks for the same page again.
          if (detail.samePage) suppliers.retry();
        }}
        empty={searchesSuppliers ? text.hintStaff : text.hintSupplier}
        filteringResultsText={
          searchesSuppliers
            ? () =>
                suppliers.tooShort
                  ? text.minLength
                  : suppliers.suppliers.length === 0
                    ? text.noSuppliers
                    : text.suppliersFound(suppliers.suppliers.length)
            : undefined
        }
      />
    </div>
  );
}
