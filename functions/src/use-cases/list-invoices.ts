import { BadRequestError, ForbiddenError, type RouteQuery, type Routes } from '@portal/shared';
import type { InvoiceSummary } from '@portal/shared';
import type { Caller } from '../http/caller.js';
import type { InvoiceFilter, InvoiceScope } from '../repositories/invoice-queries.js';
import type { InvoiceRepository, Page } from '../repositories/invoices.js';

export type ListInvoicesQuery = RouteQuery<Routes['listInvoices']>;

/**
 * Lists invoices within the caller's reach, with every filter of spec §3:
 * 1. `acquirer` is another name for `client`; both given, they must agree.
 * 2. The tenant scope: a supplier sees only what it issued (its active company is its RUC), optionally
 *    at one client; a manager only its companies (the client asked for, or its active company); an
 *    admin any company, which it must name.
 * 3. The repository plans the reads from the scope and the remaining filters.
 */
export function makeListInvoices(deps: { invoices: InvoiceRepository }) {
  return async (caller: Caller, query: ListInvoicesQuery): Promise<Page<InvoiceSummary>> => {
    if (query.acquirer && query.client && query.acquirer !== query.client) {
      throw new BadRequestError('ERROR_INVALID_PARAMETER', {
        parameter: 'acquirer',
        reason: 'debe coincidir con client',
      });
    }
    const page = { limit: query.limit, cursor: query.cursor };
    const client = query.client ?? query.acquirer;
    const filter: InvoiceFilter = {
      search: query.search,
      responsible: query.responsible,
      office: query.office,
      statuses: query.invoiceStatus,
      types: query.invoiceType,
    };

    if (caller.level === 'SUPPLIER') {
      const supplierId = caller.activeCompany!;
      if (query.issuer && query.issuer !== supplierId) {
        throw new ForbiddenError('ERROR_COMPANY_NOT_ALLOWED', { companyId: query.issuer });
      }
      const scope: InvoiceScope = { kind: 'SUPPLIER', supplierId, client };
      return deps.invoices.list(scope, filter, page);
    }

    const company = client ?? caller.activeCompany;
    if (!company) throw new BadRequestError('ERROR_MISSING_PARAMETER', { parameter: 'client' });
    if (caller.level !== 'ADMIN' && !caller.taxIds.includes(company)) {
      throw new ForbiddenError('ERROR_COMPANY_NOT_ALLOWED', { companyId: company });
    }
    const scope: InvoiceScope = { kind: 'COMPANY', client: company };
    return deps.invoices.list(scope, { ...filter, issuer: query.issuer }, page);
  };
}
