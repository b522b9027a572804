import { useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import Autosuggest, { type AutosuggestProps } from '@cloudscape-design/components/autosuggest';
import { INVOICE_STATUS_LABELS, formatMoney, sentenceEnd, type InvoiceSummary } from '@portal/shared';
import { errorMessage } from '../../api/client';
import { invoiceNumber } from '../../pages/invoices/invoice-number';
import { invoiceFoundHref, invoicesIssuerHref, invoicesSearchHref } from './invoice-links';
import { headerMessages } from './messages';
import { useInvoiceSearch } from './use-invoice-search';
import { useSupplierSearch } from './use-supplier-search';

const text = headerMessages.search;
/**
 * Option values carry a prefix each: an invoice's (its address follows), a supplier's (its RUC follows) and the
 * last option's; what the user types is never mistaken for one.
 */
const INVOICE_VALUE = 'comprobante:';
const SUPPLIER_VALUE = 'proveedor:';
const ALL_RESULTS_VALUE = 'todos:';

/** An invoice as the dropdown shows it: its number, the other party, its amount and its status. */
function invoiceOption(invoice: InvoiceSummary, searched: string, staff: boolean): AutosuggestProps.Option {
  const href = invoiceFoundHref({ supplierId: invoice.supplierId, type: invoice.type, id: invoice.id }, searched);
  return {
    value: `${INVOICE_VALUE}${href}`,
    label: invoiceNumber(invoice),
    // The other party, as the list's default columns show it: the supplier to staff, the client to a supplier.
    description: staff ? invoice.supplierName : invoice.clientName,
    labelTag: formatMoney(invoice.amount, invoice.currency),
    tags: [INVOICE_STATUS_LABELS[invoice.status]],
  };
}

/**
 * The header search of spec §2, whose results show where the user is looking, right under the box: the newest
 * invoices matching the text by number, RUC or business name («Comprobantes»; choosing one opens its detail beside
 * the list of that search), for staff the suppliers whose RUC or business name start with it («Proveedores»;
 * choosing one opens the invoices it issued), and last «Ver todos los resultados», the invoices list filtered by
 * the text, which Enter opens too. Every search lands at the top of the screen, where its first row is.
 */
export function HeaderSearch({ searchesSuppliers }: { searchesSuppliers: boolean }) {
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  // Enter on a highlighted option fires onSelect and then onKeyDown: the second must not search again.
  const justSelected = useRef(false);
  const invoices = useInvoiceSearch(value);
  const suppliers = useSupplierSearch(value, searchesSuppliers);
  const entered = value.trim();

  const options = useMemo<AutosuggestProps.Options>(
    () => [
      ...(invoices.invoices.length === 0
        ? []
        : [
            {
              label: text.invoicesGroup,
              options: invoices.invoices.map((invoice) => invoiceOption(invoice, entered, searchesSuppliers)),
            },
          ]),
      ...(suppliers.suppliers.length === 0
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
          ]),
      ...(entered ? [{ value: ALL_RESULTS_VALUE, label: text.allResults(entered) }] : []),
    ],
    [invoices.invoices, suppliers.suppliers, entered, searchesSuppliers],
  );

  const go = (href: string) => {
    setValue('');
    navigate(href);
    // The list of a search starts at its first row, wherever the screen was scrolled to before.
    window.scrollTo({ top: 0 });
  };

  const searchInvoices = (searched: string) => {
    if (searched.trim()) go(invoicesSearchHref(searched));
  };

  const loading = invoices.isLoading || suppliers.isLoading;
  const failure = invoices.error
    ? `${text.invoicesError} ${errorMessage(invoices.error)}`
    : suppliers.error
      ? `${text.suppliersError} ${errorMessage(suppliers.error)}`
      : null;
  const statusType: AutosuggestProps.StatusType = loading ? 'loading' : failure ? 'error' : 'finished';

  /** What the dropdown found, under its options: how many invoices and, for staff, how many suppliers. */
  const resultsText = () => {
    const found = [
      invoices.invoices.length === 0
        ? text.noInvoices
        : invoices.more
          ? text.newestInvoices(invoices.invoices.length)
          : text.invoicesFound(invoices.invoices.length),
    ];
    if (searchesSuppliers) {
      found.push(
        suppliers.tooShort
          ? text.minLength
          : suppliers.suppliers.length === 0
            ? text.noSuppliers
            : text.suppliersFound(suppliers.suppliers.length),
      );
    }
    return found.map(sentenceEnd).join(' ');
  };

  return (
    <div role="search" aria-label={text.label}>
      <Autosuggest
        value={value}
        onChange={({ detail }) => setValue(detail.value)}
        onSelect={({ detail }) => {
          justSelected.current = true;
          queueMicrotask(() => (justSelected.current = false));
          const chosen = detail.selectedOption?.value ?? '';
          if (chosen.startsWith(INVOICE_VALUE)) go(chosen.slice(INVOICE_VALUE.length));
          else if (chosen.startsWith(SUPPLIER_VALUE)) go(invoicesIssuerHref(chosen.slice(SUPPLIER_VALUE.length)));
          // «Ver todos los resultados», or Enter with no option highlighted: the text typed.
          else searchInvoices(chosen === ALL_RESULTS_VALUE ? value : detail.value);
        }}
        onKeyDown={({ detail }) => {
          if (detail.key === 'Enter' && !justSelected.current) searchInvoices(value);
        }}
        options={options}
        filteringType="manual"
        // «Ver todos los resultados» is the last option, below the results, instead of Cloudscape's first one.
        hideEnteredTextOption
        enteredTextLabel={text.allResults}
        placeholder={searchesSuppliers ? text.placeholderStaff : text.placeholderSupplier}
        ariaLabel={searchesSuppliers ? text.placeholderStaff : text.placeholderSupplier}
        clearAriaLabel={text.clear}
        statusType={statusType}
        loadingText={searchesSuppliers ? text.loadingStaff : text.loadingSupplier}
        errorText={failure ?? text.invoicesError}
        recoveryText={text.retry}
        onLoadItems={({ detail }) => {
          // The recovery button of the error state asks again what failed.
          if (!detail.samePage) return;
          if (invoices.error) invoices.retry();
          if (suppliers.error) suppliers.retry();
        }}
        empty={searchesSuppliers ? text.hintStaff : text.hintSupplier}
        filteringResultsText={resultsText}
      />
    </div>
  );
}
