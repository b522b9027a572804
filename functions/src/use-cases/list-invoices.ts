import { BadRequestError, ForbiddenError, acquirerConformityView, type RouteQuery, type Routes } from '@portal/shared';
import type { InvoiceSummary } from '@portal/shared';
import type { Caller } from '../http/caller.js';
import type { InvoiceFilter, InvoiceScope } from '../repositories/invoice-queries.js';
import type { InvoiceRepository } from '../repositories/invoices.js';
import type { Page } from '../repositories/page.js';
import type { InvoiceCount } from '@portal/shared';

export type ListInvoicesQuery = RouteQuery<Routes['listInvoices']>;
export type CountInvoicesQuery = RouteQuery<Routes['countInvoices']>;

/**
 * The listing a caller asks for, within its reach (spec §3 "Invoice filter"):
 * 1. `acquirer` is another name for `client`; both given, they must agree.
 * 2. The tenant scope: a supplier sees only what it issued (its active company is its RUC), optionally
 *    at one client; a manager only its companies (the client asked for, or its active company); an
 *    admin any company, which it must name.
 */
function listingOf(caller: Caller, query: CountInvoicesQuery): { scope: InvoiceScope; filter: InvoiceFilter } {
  if (query.acquirer && query.client && query.acquirer !== query.client) {
    throw new BadRequestError('ERROR_INVALID_PARAMETER', {
      parameter: 'acquirer',
      reason: 'debe coincidir con client',
    });
  }
  const client = query.client ?? query.acquirer;
  if (query.dueFrom && query.dueTo && query.dueFrom > query.dueTo) {
    throw new BadRequestError('ERROR_INVALID_PARAMETER', {
      parameter: 'dueTo',
      reason: 'la fecha final de «vence entre» no puede ser anterior a la inicial',
    });
  }
  const filter: InvoiceFilter = {
    search: query.search,
    responsible: query.responsible,
    office: query.office,
    statuses: query.invoiceStatus,
    types: query.invoiceType,
    dueFrom: query.dueFrom,
    dueTo: query.dueTo,
    acquirerConformity: query.acquirerConformity,
    observed: query.observed,
  };

  if (caller.level === 'SUPPLIER') {
    const supplierId = caller.activeCompany!;
    if (query.issuer && query.issuer !== supplierId) {
      throw new ForbiddenError('ERROR_COMPANY_NOT_ALLOWED', { companyId: query.issuer });
    }
    return { scope: { kind: 'SUPPLIER', supplierId, client }, filter };
  }

  const company = client ?? caller.activeCompany;
  if (!company) throw new BadRequestError('ERROR_MISSING_PARAMETER', { parameter: 'client' });
  if (caller.level !== 'ADMIN' && !caller.taxIds.includes(company)) {
    throw new ForbiddenError('ERROR_COMPANY_NOT_ALLOWED', { companyId: company });
  }
  return { scope: { kind: 'COMPANY', client: company }, filter: { ...filter, issuer: query.issuer } };
}

/** GET /invoices: a page of the listing; the repository plans the reads from the scope and the filters. */
export function makeListInvoices(deps: { invoices: InvoiceRepository; clock?: () => Date }) {
  return async (caller: Caller, query: ListInvoicesQuery): Promise<Page<InvoiceSummary>> => {
    const { scope, filter } = listingOf(caller, query);
    const page = await deps.invoices.list(scope, filter, { limit: query.limit, cursor: query.cursor });
    // Each row's Ley 29623 clock with the days left today (the stage's clock).
    const now = (deps.clock ?? (() => new Date()))();
    return {
      ...page,
      items: page.items.map((item) =>
        item.acquirerConformity
          ? { ...item, acquirerConformity: acquirerConformityView(item.acquirerConformity, item, now) }
          : item,
      ),
    };
  };
}

/** GET /invoices/count: how many invoices the same listing holds (the list's total, the assistant's counts). */
export function makeCountInvoices(deps: { invoices: InvoiceRepository }) {
  return async (caller: Caller, query: CountInvoicesQuery): Promise<InvoiceCount> => {
    const { scope, filter } = listingOf(caller, query);
    return deps.invoices.count(scope, filter);
  };
}
