import { routes, type SupplierProfile } from '@portal/shared';
import { useApi } from '../../api/use-api';
import { useDebounced } from '../../hooks/use-debounced';

/** GET /suppliers asks for at least this many characters (spec §2 Header, SearchSuppliersQuery). */
export const SUPPLIER_SEARCH_MIN_LENGTH = 2;
const SUPPLIER_SEARCH_LIMIT = 8;
/** The header's searches ask once the user pauses typing this long. */
export const SEARCH_DEBOUNCE_MS = 250;

/**
 * Suppliers whose RUC or business name starts with the text (staff only: the route is theirs).
 * Asks once the user pauses typing, and only with enough characters.
 */
export function useSupplierSearch(text: string, enabled: boolean) {
  const query = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  const ready = enabled && query.length >= SUPPLIER_SEARCH_MIN_LENGTH;
  const { data, error, isLoading, mutate } = useApi(
    routes.searchSuppliers,
    ready ? { query: { query, limit: SUPPLIER_SEARCH_LIMIT } } : null,
    { revalidateOnFocus: false, keepPreviousData: true },
  );
  const pending = enabled && text.trim() !== query;
  const suppliers: SupplierProfile[] = ready ? (data?.items ?? []) : [];
  return {
    suppliers,
    error: ready ? error : undefined,
    isLoading: ready && (isLoading || pending),
    tooShort: enabled && text.trim().length < SUPPLIER_SEARCH_MIN_LENGTH,
    retry: () => void mutate(),
  };
}
