import { matchPath } from 'react-router-dom';
import { routes } from '@portal/shared';
import type { TokenClaims } from '../../api/client';
import { fetchFirstPageAhead } from '../../hooks/use-cursor-pages';
import { INVOICES_PATH, INVOICE_DETAIL_ROUTE } from '../../layout/header/invoice-links';
import { PATHS } from '../../routing/guard';
import { chosenCompany } from '../../session/active-company';
import { parseFilter } from './invoice-filter';
import { resolveFilter } from './use-invoice-filter';
import { storedInvoicesPageSize } from './use-page-size';

/** The addresses that open the invoices screen (the route table's, web/src/routing/routes.ts). */
const INVOICES_SCREEN = [PATHS.home, INVOICES_PATH, INVOICE_DETAIL_ROUTE];

/**
 * When the app opens on the invoices screen: starts `GET /invoices` for the page the screen will ask first, beside
 * the guard's `GET /users/me` instead of after the guard and the screen have rendered (on a phone, a round trip
 * and a render of the shell). The level and companies come from the ID token, the claims `GET /users/me` answers
 * with; the filter from the address and the page size from the browser, as the screen reads them. The page waits,
 * under the key the screen will compute, for the screen's first fetch (`fetchFirstPageAhead`): when the guard's
 * answer differs (another level, other companies) or the session changes, the screen's key differs and it asks
 * for its own. Nothing starts for a level the screen refuses, nor for an administrator's page whose company is the
 * group's first (the screen needs `GET /clients` for it) rather than one the address names.
 */
export function fetchInvoicesAhead(location: Pick<Location, 'pathname' | 'search'>, claims: TokenClaims): void {
  if (claims.level === 'UNKNOWN' || !INVOICES_SCREEN.some((path) => matchPath(path, location.pathname))) return;
  const { query } = resolveFilter(claims.level, parseFilter(new URLSearchParams(location.search)), {
    taxIds: claims.taxIds,
    chosen: chosenCompany(),
    clients: [],
  });
  if (query === null) return;
  fetchFirstPageAhead(routes.listInvoices, query, storedInvoicesPageSize());
}
