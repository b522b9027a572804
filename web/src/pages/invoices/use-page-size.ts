import { useCallback, useState } from 'react';
import { INVOICES_PAGE_SIZE_KEY, isInvoicesPageSize, parseInvoicesPageSize, type InvoicesPageSize } from './page-size';

/** The page size the browser remembers (the default when none or unreadable). */
export function storedInvoicesPageSize(): InvoicesPageSize {
  try {
    return parseInvoicesPageSize(localStorage.getItem(INVOICES_PAGE_SIZE_KEY));
  } catch {
    // Storage may be unavailable (blocked by the browser): the default then.
    return parseInvoicesPageSize(null);
  }
}

/**
 * The page size of the invoices screen chosen in the table's preferences, remembered per browser in
 * localStorage (a stored value that is not one of the sizes offered counts as the default).
 */
export function useInvoicesPageSize(): readonly [InvoicesPageSize, (size: number | undefined) => void] {
  const [pageSize, setPageSize] = useState(storedInvoicesPageSize);
  const choose = useCallback((size: number | undefined) => {
    if (!isInvoicesPageSize(size)) return;
    setPageSize(size);
    try {
      localStorage.setItem(INVOICES_PAGE_SIZE_KEY, String(size));
    } catch {
      // Not remembered when storage is unavailable: the choice lasts while the screen is open.
    }
  }, []);
  return [pageSize, choose] as const;
}
