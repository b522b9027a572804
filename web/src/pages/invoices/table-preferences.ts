import type { Level } from '@portal/shared';

/**
 * Which columns of the invoices table show, in what order, how wide (a column the user resized) and whether
 * their lines wrap: the table's 'Preferencias', remembered per browser and per level (a supplier and a
 * manager sharing a computer each keep their own). Pure on purpose (no DOM, no React), like page-size.ts.
 */
export const INVOICE_COLUMN_IDS = [
  'number',
  'type',
  'client',
  'supplier',
  'amount',
  'status',
  'certStatus',
  'issuedAt',
  'paymentDate',
  'file',
  'acquirerConformity',
] as const;

export type InvoiceColumnId = (typeof INVOICE_COLUMN_IDS)[number];

export interface ColumnDisplay {
  readonly id: InvoiceColumnId;
  readonly visible: boolean;
}

export type ColumnWidths = Readonly<Partial<Record<InvoiceColumnId, number>>>;

export interface InvoicesTablePreferences {
  readonly contentDisplay: readonly ColumnDisplay[];
  readonly wrapLines: boolean;
  /** Compact rows (the default: ten and more fit a 1366×768 laptop's first screen) or Cloudscape's comfortable ones. */
  readonly contentDensity: 'compact' | 'comfortable';
  /** Widths in pixels of the columns the user resized; the others keep the table's own. */
  readonly columnWidths: ColumnWidths;
}

/** A stored width is kept within what a column can sensibly be. */
export const COLUMN_WIDTH_RANGE = { min: 60, max: 1200 } as const;

/** The number opens the invoice: it cannot be hidden. */
export const ALWAYS_VISIBLE: readonly InvoiceColumnId[] = ['number'];

/** localStorage key of a level's preferences (the value is JSON: {contentDisplay, wrapLines, contentDensity, columnWidths}). */
export function invoicesDisplayKey(level: Level): string {
  return `portal.invoices.display.${level}`;
}

/**
 * What a clerk reads first, fitting a 1366-px laptop without sideways scrolling: the number, the type, who the other
 * party is, the amount, the status, when it is paid and its files; SUNAT's answer, the issue date and the SUNAT
 * conformity can be turned on in 'Preferencias'. A supplier is always the issuer, so 'Proveedor' starts hidden for
 * it; staff see one company at a time (the active one, or the one an admin picked), so 'Cliente' starts
 * hidden for them. Either can be turned on, and shows beside the other party.
 */
export function defaultPreferences(level: Level | undefined): InvoicesTablePreferences {
  const supplierView = level === 'SUPPLIER';
  const parties: ColumnDisplay[] = supplierView
    ? [
        { id: 'client', visible: true },
        { id: 'supplier', visible: false },
      ]
    : [
        { id: 'supplier', visible: true },
        { id: 'client', visible: false },
      ];
  return {
    contentDisplay: [
      { id: 'number', visible: true },
      { id: 'type', visible: true },
      ...parties,
      { id: 'amount', visible: true },
      { id: 'status', visible: true },
      { id: 'paymentDate', visible: true },
      // The row's file actions.
      { id: 'file', visible: true },
      // Shown in the invoice's panel, and on demand here: with them the default set no longer fits 1366 px.
      { id: 'certStatus', visible: false },
      { id: 'issuedAt', visible: false },
      { id: 'acquirerConformity', visible: false },
    ],
    wrapLines: false,
    contentDensity: 'compact',
    columnWidths: {},
  };
}

const isColumnId = (value: unknown): value is InvoiceColumnId =>
  (INVOICE_COLUMN_IDS as readonly unknown[]).includes(value);

/**
 * A choice as the preferences dialog answers it, made whole: every column once, in the order given, unknown
 * ids dropped, the number visible; a column the choice does not name (one added to the portal since) keeps
 * its default place and visibility.
 */
export function normalizeContentDisplay(
  chosen: readonly { id: string; visible: boolean }[],
  level: Level | undefined,
): ColumnDisplay[] {
  const defaults = defaultPreferences(level).contentDisplay;
  const result: ColumnDisplay[] = [];
  for (const item of chosen) {
    if (!isColumnId(item.id) || result.some((column) => column.id === item.id)) continue;
    result.push({ id: item.id, visible: ALWAYS_VISIBLE.includes(item.id) || item.visible === true });
  }
  defaults.forEach((column, index) => {
    if (result.some((known) => known.id === column.id)) return;
    // After the column that precedes it by default, or first.
    const before = defaults[index - 1];
    const at = before ? result.findIndex((known) => known.id === before.id) + 1 : 0;
    result.splice(at, 0, column);
  });
  return result;
}

/** The widths worth keeping: known columns, whole pixels within COLUMN_WIDTH_RANGE. */
export function normalizeColumnWidths(widths: unknown): ColumnWidths {
  if (typeof widths !== 'object' || widths === null) return {};
  const kept: Partial<Record<InvoiceColumnId, number>> = {};
  for (const [id, width] of Object.entries(widths)) {
    if (!isColumnId(id) || typeof width !== 'number' || !Number.isFinite(width)) continue;
    kept[id] = Math.round(Math.min(COLUMN_WIDTH_RANGE.max, Math.max(COLUMN_WIDTH_RANGE.min, width)));
  }
  return kept;
}

/** The preferences a stored value stands for: the level's defaults when absent or unreadable. */
export function parseTablePreferences(stored: string | null | undefined, level: Level | undefined) {
  const defaults = defaultPreferences(level);
  if (!stored) return defaults;
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return defaults;
  }
  if (typeof value !== 'object' || value === null) return defaults;
  const { contentDisplay, wrapLines, contentDensity, columnWidths } = value as {
    contentDisplay?: unknown;
    wrapLines?: unknown;
    contentDensity?: unknown;
    columnWidths?: unknown;
  };
  const items = Array.isArray(contentDisplay)
    ? contentDisplay.filter(
        (item): item is { id: string; visible: boolean } =>
          typeof item === 'object' &&
          item !== null &&
          typeof (item as { id?: unknown }).id === 'string' &&
          typeof (item as { visible?: unknown }).visible === 'boolean',
      )
    : [];
  return {
    contentDisplay: items.length > 0 ? normalizeContentDisplay(items, level) : defaults.contentDisplay,
    wrapLines: typeof wrapLines === 'boolean' ? wrapLines : defaults.wrapLines,
    contentDensity: contentDensity === 'comfortable' ? 'comfortable' : defaults.contentDensity,
    columnWidths: normalizeColumnWidths(columnWidths),
  } satisfies InvoicesTablePreferences;
}

export function serializeTablePreferences(preferences: InvoicesTablePreferences): string {
  return JSON.stringify({
    contentDisplay: preferences.contentDisplay,
    wrapLines: preferences.wrapLines,
    contentDensity: preferences.contentDensity,
    columnWidths: preferences.columnWidths,
  });
}
