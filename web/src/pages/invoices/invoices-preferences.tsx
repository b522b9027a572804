import CollectionPreferences, {
  type CollectionPreferencesProps,
} from '@cloudscape-design/components/collection-preferences';
import { COLUMN_WIDTHS } from './columns';
import { invoicesMessages } from './messages';
import { INVOICES_PAGE_SIZES } from './page-size';
import { ALWAYS_VISIBLE, type InvoiceColumnId, type InvoicesTablePreferences } from './table-preferences';
import type { TablePreferencesChange } from './use-table-preferences';

const text = invoicesMessages;

/**
 * The widths the user gave columns by resizing them: the table reports every column's, in the order of the
 * definitions (hidden ones included); only those that differ from the default are kept.
 */
export function resizedWidths(columns: readonly { id: InvoiceColumnId }[], widths: readonly number[]) {
  return Object.fromEntries(
    columns.flatMap((column, index) => {
      const width = widths[index];
      return width !== undefined && width !== COLUMN_WIDTHS[column.id].width ? [[column.id, width]] : [];
    }),
  );
}

/** The columns of the preferences dialog's answer (the table has no column groups). */
function contentColumns(
  items: CollectionPreferencesProps.Preferences['contentDisplay'],
): { id: string; visible: boolean }[] | undefined {
  return items?.flatMap((item) => (item.type === 'group' ? [] : [{ id: item.id, visible: item.visible }]));
}

const PAGE_SIZE_OPTIONS = INVOICES_PAGE_SIZES.map((size) => ({
  value: size,
  label: text.preferences.pageSizeOption(size),
}));

const PREFERENCES_TEXTS = {
  title: text.preferences.title,
  confirmLabel: text.preferences.confirm,
  cancelLabel: text.preferences.cancel,
  closeAriaLabel: text.preferences.close,
} as const;

/** A phone's cards: their preferences are the page's size only. */
export function CardsPreferences({
  pageSize,
  onPageSize,
}: {
  pageSize: number;
  onPageSize: (size: number | undefined) => void;
}) {
  return (
    <CollectionPreferences
      {...PREFERENCES_TEXTS}
      pageSizePreference={{ title: text.preferences.cardsPageSize, options: PAGE_SIZE_OPTIONS }}
      preferences={{ pageSize }}
      onConfirm={({ detail }) => onPageSize(detail.pageSize)}
    />
  );
}

/** The table's preferences: rows per page, line wrapping, density, and the columns shown in their order. */
export function TablePreferences({
  columns,
  pageSize,
  display,
  onPageSize,
  onDisplay,
}: {
  columns: readonly { id: InvoiceColumnId }[];
  pageSize: number;
  display: InvoicesTablePreferences;
  onPageSize: (size: number | undefined) => void;
  onDisplay: (change: TablePreferencesChange) => void;
}) {
  return (
    <CollectionPreferences
      {...PREFERENCES_TEXTS}
      pageSizePreference={{ title: text.preferences.pageSize, options: PAGE_SIZE_OPTIONS }}
      wrapLinesPreference={{
        label: text.preferences.wrapLines,
        description: text.preferences.wrapLinesDescription,
      }}
      contentDensityPreference={{
        label: text.preferences.compact,
        description: text.preferences.compactDescription,
      }}
      contentDisplayPreference={{
        title: text.preferences.columns,
        description: text.preferences.columnsDescription,
        options: columns.map((column) => ({
          id: column.id,
          label: text.columns[column.id],
          alwaysVisible: ALWAYS_VISIBLE.includes(column.id),
        })),
      }}
      preferences={{
        pageSize,
        wrapLines: display.wrapLines,
        contentDensity: display.contentDensity,
        contentDisplay: display.contentDisplay,
      }}
      onConfirm={({ detail }) => {
        onPageSize(detail.pageSize);
        onDisplay({
          contentDisplay: contentColumns(detail.contentDisplay),
          wrapLines: detail.wrapLines,
          contentDensity: detail.contentDensity,
        });
      }}
    />
  );
}
