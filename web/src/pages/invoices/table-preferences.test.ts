import { describe, expect, it } from 'vitest';
import {
  INVOICE_COLUMN_IDS,
  defaultPreferences,
  invoicesDisplayKey,
  normalizeContentDisplay,
  parseTablePreferences,
  serializeTablePreferences,
} from './table-preferences';

const visibleIds = (items: readonly { id: string; visible: boolean }[]) =>
  items.filter((item) => item.visible).map((item) => item.id);

describe("the invoices table's columns", () => {
  it('puts what a clerk reads first, and only what fits a 1366-px laptop: the rest on demand', () => {
    expect(visibleIds(defaultPreferences('SUPPLIER').contentDisplay)).toEqual([
      'number',
      'type',
      'client',
      'amount',
      'status',
      'paymentDate',
      'file',
    ]);
    // Offered in 'Preferencias', after what shows by default.
    expect(
      defaultPreferences('SUPPLIER')
        .contentDisplay.filter((column) => !column.visible)
        .map((column) => column.id),
    ).toEqual(['supplier', 'certStatus', 'issuedAt', 'acquirerConformity']);
    expect(defaultPreferences('SUPPLIER').contentDensity).toBe('compact');
    for (const level of ['MANAGER', 'ADMIN'] as const) {
      expect(visibleIds(defaultPreferences(level).contentDisplay).slice(0, 5)).toEqual([
        'number',
        'type',
        'supplier',
        'amount',
        'status',
      ]);
    }
  });

  it('hides the party that is always the same, and offers it beside the other one', () => {
    const supplier = defaultPreferences('SUPPLIER').contentDisplay;
    expect(supplier.find((column) => column.id === 'supplier')).toEqual({ id: 'supplier', visible: false });
    expect(supplier.map((column) => column.id).indexOf('supplier')).toBe(3);
    const manager = defaultPreferences('MANAGER').contentDisplay;
    expect(manager.find((column) => column.id === 'client')).toEqual({ id: 'client', visible: false });
    // Every column is offered, once.
    for (const items of [supplier, manager])
      expect([...items.map((item) => item.id)].sort()).toEqual([...INVOICE_COLUMN_IDS].sort());
  });

  it('reads back what was stored, per level', () => {
    const chosen = {
      contentDisplay: normalizeContentDisplay(
        [
          { id: 'number', visible: true },
          { id: 'status', visible: true },
          { id: 'supplier', visible: true },
          { id: 'amount', visible: false },
        ],
        'SUPPLIER',
      ),
      wrapLines: true,
      contentDensity: 'comfortable' as const,
      columnWidths: { supplier: 320 },
    };
    const stored = serializeTablePreferences(chosen);
    expect(parseTablePreferences(stored, 'SUPPLIER')).toEqual(chosen);
    const order = chosen.contentDisplay.map((item) => item.id);
    expect(order.indexOf('status')).toBeLessThan(order.indexOf('supplier'));
    expect(order.indexOf('supplier')).toBeLessThan(order.indexOf('amount'));
    expect(visibleIds(chosen.contentDisplay)).not.toContain('amount');
    expect(invoicesDisplayKey('SUPPLIER')).not.toBe(invoicesDisplayKey('MANAGER'));
  });

  it('makes a partial or strange choice whole: each column once, the number always shown', () => {
    const items = normalizeContentDisplay(
      [
        { id: 'amount', visible: true },
        { id: 'number', visible: false },
        { id: 'amount', visible: false },
        { id: 'unknown', visible: true },
      ],
      'MANAGER',
    );
    expect(items.map((item) => item.id).sort()).toEqual([...INVOICE_COLUMN_IDS].sort());
    expect(items.find((item) => item.id === 'number')?.visible).toBe(true);
    expect(items.find((item) => item.id === 'amount')?.visible).toBe(true);
    expect(items[0]?.id).toBe('amount');
  });

  it('falls back to the level’s defaults for anything unreadable, and keeps widths within bounds', () => {
    for (const stored of [null, undefined, '', 'no es json', '42', '[]', '{"contentDisplay":"x","wrapLines":"sí"}']) {
      expect(parseTablePreferences(stored, 'MANAGER')).toEqual(defaultPreferences('MANAGER'));
    }
    expect(
      parseTablePreferences(
        JSON.stringify({ columnWidths: { supplier: 5, amount: 99_999, type: 'ancho', nope: 200, status: 201.6 } }),
        'MANAGER',
      ).columnWidths,
    ).toEqual({ supplier: 60, amount: 1200, status: 202 });
  });
});
