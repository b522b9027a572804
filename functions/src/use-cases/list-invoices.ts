import { BadRequestError, ForbiddenError, NotImplementedError, type RouteQuery, type Routes } from '@portal/shared';
import type { Caller } from '../http/caller.js';
import type { InvoiceRepository, Page } from '../repositories/invoices.js';
import type { InvoiceSummary } from '@portal/shared';

export type ListInvoicesQuery = RouteQuery<Routes['listInvoices']>;

/** Filters of spec §3 whose indexes arrive with the review API; refused until then rather than ignored. */
const NOT_YET_SUPPORTED = ['search', 'responsible', 'invoiceStatus', 'invoiceType', 'office'] as const;

/**
 * Lists invoices within the caller's reach:
 * - a supplier sees only what it issued (its active company is its RUC), optionally for one client;
 * - a manager sees only its companies (the client asked for, or its active company);
 * - an admin sees any company, which it must name.
 */
export function makeListInvoices(deps: { invoices: InvoiceRepository }) {
  return async (caller: Caller, query: ListInvoicesQuery): Promise<Page<InvoiceSummary>> => {
    for (const name of NOT_YET_SUPPORTED) {
      if (query[name] !== undefined) throw new NotImplementedError();
    }
    if (query.acquirer && query.client && query.acquirer !== query.client) {
      throw new BadRequestError('ERROR_INVALID_PARAMETER', {
        parameter: 'acquirer',
        reason: 'debe coincidir con client',
      });
    }
    const page = { limit: query.limit, cursor: query.cursor };
    const client = query.client ?? query.acquirer;

    if (caller.level === 'SUPPLIER') {
      const supplierId = caller.activeCompany!;
      if (query.issuer && query.issuer !== supplierId) {
        throw new ForbiddenError('ERROR_COMPANY_NOT_ALLOWED', { companyId: query.issuer });
      }
      return client
        ? deps.invoices.listByClientAndSupplier(client, supplierId, page)
        : deps.invoices.listBySupplier(supplierId, page);
    }

    const company = client ?? caller.activeCompany;
    if (!company) throw new BadRequestError('ERROR_MISSING_PARAMETER', { parameter: 'client' });
    if (caller.level !== 'ADMIN' && !caller.taxIds.includes(company)) {
      throw new ForbiddenError('ERROR_COMPANY_NOT_ALLOWED', { companyId: company });
    }
    return query.issuer
      ? deps.invoices.listByClientAndSupplier(company, query.issuer, page)
      : deps.invoices.listByClient(company, page);
  };
}
