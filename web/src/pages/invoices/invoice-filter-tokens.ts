import { type TokenGroupProps } from '@cloudscape-design/components/token-group';
import { INVOICE_STATUS_LABELS, INVOICE_TYPE_LABELS, formatDate, type Client, type Level } from '@portal/shared';
import { type FilterPatch, type InvoiceFilterState } from './invoice-filter';
import { conformityMessages } from './acquirer-conformity/messages';
import { invoicesMessages } from './messages';
import { paymentMessages } from './payment-messages';
import type { ResolvedFilter } from './use-invoice-filter';

const text = invoicesMessages.filters;

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
