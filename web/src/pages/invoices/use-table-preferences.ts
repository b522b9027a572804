import { useCallback, useState } from 'react';
import type { Level } from '@portal/shared';
import {
  invoicesDisplayKey,
  normalizeColumnWidths,
  normalizeContentDisplay,
  parseTablePreferences,
  serializeTablePreferences,
  type InvoicesTablePreferences,
} from './table-preferences';

function readStored(level: Level | undefined): InvoicesTablePreferences {
  try {
    return parseTablePreferences(level ? localStorage.getItem(invoicesDisplayKey(level)) : null, level);
  } catch {
    // Storage may be unavailable (blocked by the browser): the defaults then.
    return parseTablePreferences(null, level);
  }
}

export interface TablePreferencesChange {
  readonly contentDisplay?: readonly { id: string; visible: boolean }[];
  readonly wrapLines?: boolean;
  readonly contentDensity?: 'compact' | 'comfortable';
  /** Widths by column id, as the table reports a resize. */
  readonly columnWidths?: Readonly<Record<string, number>>;
}

/**
 * The invoices table's visible columns, their order, widths and line wrapping, as chosen in 'Preferencias'
 * (widths by resizing a column) and remembered per browser and level in localStorage (like the page size,
 * use-page-size.ts).
 */
export function useInvoicesTablePreferences(
  level: Level | undefined,
): readonly [InvoicesTablePreferences, (change: TablePreferencesChange) => void] {
  const [state, setState] = useState(() => ({ level, preferences: readStored(level) }));
  // Another user in the same tab (a sign-out, then a sign-in) reads its own preferences.
  if (state.level !== level) setState({ level, preferences: readStored(level) });

  const current = state.level === level ? state.preferences : readStored(level);
  const choose = useCallback(
    (change: TablePreferencesChange) => {
      const preferences: InvoicesTablePreferences = {
        contentDisplay: change.contentDisplay
          ? normalizeContentDisplay(change.contentDisplay, level)
          : current.contentDisplay,
        wrapLines: change.wrapLines ?? current.wrapLines,
        contentDensity: change.contentDensity ?? current.contentDensity,
        columnWidths: change.columnWidths ? normalizeColumnWidths(change.columnWidths) : current.columnWidths,
      };
      setState({ level, preferences });
      try {
        if (level) localStorage.setItem(invoicesDisplayKey(level), serializeTablePreferences(preferences));
      } catch {
        // Not remembered when storage is unavailable: the choice lasts while the screen is open.
      }
    },
    [level, current],
  );
  return [current, choose] as const;
}
