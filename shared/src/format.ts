import type { Currency } from './domain.js';

const CURRENCY_PREFIX: Record<Currency, string> = { PEN: 'S/ ', USD: '$ ' };
const NUMBER = new Intl.NumberFormat('es-PE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Money as the spec shows it: 'S/ 1,234.50' or '$ 99.00' (Peruvian grouping, two decimals). */
export function formatMoney(amount: number, currency: Currency = 'PEN'): string {
  return CURRENCY_PREFIX[currency] + NUMBER.format(amount);
}

/** A date as dd/mm/yy from an ISO date or timestamp; '—' when absent. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!match) return '—';
  const [, year, month, day] = match;
  return `${day}/${month}/${year!.slice(2)}`;
}

/** Weeks start on Monday (spec §9): 1 for date pickers that take a start-of-week day. */
export const START_OF_WEEK = 1;
