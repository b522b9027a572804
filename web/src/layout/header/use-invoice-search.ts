import { useEffect, useState } from 'react';
import { routes, type InvoiceSummary } from '@portal/shared';
import { apiCall } from '../../api/client';
import { useClients } from '../../hooks/use-clients';
import { EMPTY_FILTER, SEARCH_MAX_LENGTH } from '../../pages/invoices/invoice-filter';
import { resolveFilter } from '../../pages/invoices/use-invoice-filter';
import type { InvoiceFilter } from '../../pages/invoices/use-invoices';
import { useChosenCompany } from '../../session/active-company';
import { useCurrentUser } from '../../session/use-current-user';
import { useSessionEpoch } from '../../session/session-epoch';
import { useDebounced } from '../../hooks/use-debounced';
import { SEARCH_DEBOUNCE_MS } from './use-supplier-search';

/** How many invoices the header's dropdown shows: the newest, in the list's own order. */
export const INVOICE_SEARCH_LIMIT = 5;

/** What one search answered; `key` says which search, so that an answer never shows for another text. */
type Answer =
  | { readonly key: string; readonly items: readonly InvoiceSummary[]; readonly more: boolean }
  | { readonly key: string; readonly error: Error };

/** The call one search makes, with what it depends on (a new session or company asks again). */
interface SearchCall {
  readonly epoch: number;
  readonly company: string | null;
  readonly query: InvoiceFilter & { readonly limit: number };
}

/**
 * The newest invoices matching the text by number, RUC or business name, as the invoices list shows them for
 * /invoices?search=<text>: the same GET /invoices and the same reach (resolveFilter: a supplier only what it issued,
 * a manager its active company, an administrator the company the list opens on). Asks once the user pauses typing;
 * a newer text cancels the call still on its way, whose answer is never shown. While a search is on its way the
 * last answer stays, marked as loading, so the dropdown does not jump at every key.
 */
export function useInvoiceSearch(text: string) {
  const { user, taxIds } = useCurrentUser();
  const { clients } = useClients();
  const chosen = useChosenCompany();
  const epoch = useSessionEpoch();
  const typed = text.trim().slice(0, SEARCH_MAX_LENGTH);
  const search = useDebounced(typed, SEARCH_DEBOUNCE_MS);
  const query = search
    ? resolveFilter(user?.level, { ...EMPTY_FILTER, search }, { taxIds, chosen, clients }).query
    : null;
  // One string per search: the effect runs again only when what it would ask changes.
  const key =
    query === null
      ? null
      : JSON.stringify({
          epoch,
          company: chosen,
          query: { ...query, limit: INVOICE_SEARCH_LIMIT },
        } satisfies SearchCall);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [attempt, setAttempt] = useState(0);
  // A cleared field forgets the last answer: the next text starts from nothing.
  if (!typed && answer !== null) setAnswer(null);

  useEffect(() => {
    if (key === null) return;
    const call = JSON.parse(key) as SearchCall;
    const controller = new AbortController();
    apiCall(routes.listInvoices, { query: call.query, signal: controller.signal }).then(
      (page) => setAnswer({ key, items: page.items, more: page.nextCursor !== null }),
      (error: Error) => {
        if (!controller.signal.aborted) setAnswer({ key, error });
      },
    );
    return () => controller.abort();
  }, [key, attempt]);

  const current = answer !== null && answer.key === key ? answer : null;
  const shown = answer !== null && 'items' in answer ? answer : null;
  return {
    /** The last answer's invoices (none once the text is cleared). */
    invoices: typed && shown ? shown.items : [],
    /** More invoices match than the dropdown shows. */
    more: Boolean(typed && shown?.more),
    error: current && 'error' in current ? current.error : undefined,
    isLoading: Boolean(typed) && (typed !== search || current === null),
    retry: () => {
      setAnswer((last) => (last !== null && 'error' in last ? null : last));
      setAttempt((count) => count + 1);
    },
  };
}
