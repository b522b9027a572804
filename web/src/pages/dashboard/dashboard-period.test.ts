import { describe, expect, it } from 'vitest';
import { dashboardPeriod, parsePeriod, withPeriod, yearsOffered } from './dashboard-period';

const query = (text: string) => new URLSearchParams(text);

describe("the dashboard's period in the URL", () => {
  it('reads back the month and year it wrote', () => {
    const written = withPeriod(query(''), { month: 3, year: 2026 });
    expect(written.toString()).toBe('month=3&year=2026');
    expect(parsePeriod(written, 2026)).toEqual({ month: 3, year: 2026 });
    expect(dashboardPeriod(3, 2026)).toBe('03/2026');
  });

  it('keeps a month or a year alone (the period is then sent only once both are chosen)', () => {
    expect(parsePeriod(query('month=11'), 2026)).toEqual({ month: 11, year: null });
    expect(parsePeriod(query('year=2025'), 2026)).toEqual({ month: null, year: 2025 });
    expect(dashboardPeriod(11, null)).toBeUndefined();
  });

  it('leaves out what is not a month or a year of the portal, instead of failing', () => {
    for (const text of ['month=0', 'month=13', 'month=mayo', 'month=1.5', 'month=-3', 'month=', 'month=%20']) {
      expect(parsePeriod(query(text), 2026).month).toBeNull();
    }
    for (const text of ['year=2009', 'year=2027', 'year=abc', 'year=26', 'year=20266']) {
      expect(parsePeriod(query(text), 2026).year).toBeNull();
    }
  });

  it('clears what is null and keeps the rest of the query', () => {
    expect(withPeriod(query('month=3&year=2026&x=1'), { month: null, year: 2026 }).toString()).toBe('x=1&year=2026');
    expect(withPeriod(query('month=3&year=2026'), { month: null, year: null }).toString()).toBe('');
  });

  it('offers the last five years, and an older one a link brought', () => {
    expect(yearsOffered(2026, null)).toEqual([2026, 2025, 2024, 2023, 2022]);
    expect(yearsOffered(2026, 2024)).toEqual([2026, 2025, 2024, 2023, 2022]);
    expect(yearsOffered(2026, 2015)).toEqual([2026, 2025, 2024, 2023, 2022, 2015]);
  });
});
