import { ISSUE_DATE_FLOOR } from '@portal/shared';

/**
 * The dashboard's month and year, kept in the URL's query (`?month=11&year=2026`) like the invoices
 * filters, so that a reload or a shared link shows the same period. Pure on purpose: unit-tested.
 */
export const PERIOD_QUERY = { month: 'month', year: 'year' } as const;

/** How many years back the year filter offers, the current one included. */
export const YEARS_OFFERED = 5;

/** No document is older than the portal's floor (docs/limits.md): no year before it is a period. */
const FIRST_YEAR = Number(ISSUE_DATE_FLOOR.slice(0, 4));

export interface DashboardPeriod {
  /** 1 to 12, or null for every month. */
  readonly month: number | null;
  /** A year from FIRST_YEAR to this year, or null for every year. */
  readonly year: number | null;
}

function wholeNumber(raw: string | null): number | null {
  const value = raw?.trim();
  return value && /^\d{1,4}$/.test(value) ? Number(value) : null;
}

/**
 * The period a query names; a value that is not a month (0, 13, 'mayo') or a year of the portal (before
 * 2010, after this year in Lima, 'abc') is left out, as if not given: the dashboard then shows every month or
 * every year instead of failing.
 */
export function parsePeriod(params: URLSearchParams, thisYear: number): DashboardPeriod {
  const month = wholeNumber(params.get(PERIOD_QUERY.month));
  const year = wholeNumber(params.get(PERIOD_QUERY.year));
  return {
    month: month !== null && month >= 1 && month <= 12 ? month : null,
    year: year !== null && year >= FIRST_YEAR && year <= thisYear ? year : null,
  };
}

/** The query of a period, beside whatever else the query holds: what is null is left out. */
export function withPeriod(params: URLSearchParams, period: DashboardPeriod): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete(PERIOD_QUERY.month);
  next.delete(PERIOD_QUERY.year);
  if (period.month !== null) next.set(PERIOD_QUERY.month, String(period.month));
  if (period.year !== null) next.set(PERIOD_QUERY.year, String(period.year));
  return next;
}

/** The years the filter offers: this one and the four before, and an older one a link brought. */
export function yearsOffered(thisYear: number, chosen: number | null): number[] {
  const years = Array.from({ length: YEARS_OFFERED }, (_, back) => thisYear - back);
  return chosen !== null && !years.includes(chosen) ? [...years, chosen] : years;
}

/** Spec §7: the period is MM/YYYY and is sent only when both month and year are chosen. */
export function dashboardPeriod(month: number | null, year: number | null): string | undefined {
  return month && year ? `${String(month).padStart(2, '0')}/${year}` : undefined;
}
