import Pagination from '@cloudscape-design/components/pagination';
import type { useCursorPages } from '../hooks/use-cursor-pages';
import { messages } from '../messages';

type CursorPages = Pick<
  ReturnType<typeof useCursorPages>,
  'pageIndex' | 'pagesCount' | 'openEnd' | 'isLoading' | 'goToPage'
>;

/** A table's pagination over `useCursorPages`: open-ended while more pages may follow, still while a page loads. */
export function CursorPagination({ pages }: { pages: CursorPages }) {
  return (
    <Pagination
      currentPageIndex={pages.pageIndex + 1}
      pagesCount={pages.pagesCount}
      openEnd={pages.openEnd}
      disabled={pages.isLoading}
      onChange={({ detail }) => pages.goToPage(detail.currentPageIndex - 1)}
      ariaLabels={messages.table.pagination}
    />
  );
}
