import { describe, expect, it } from 'vitest';
import { EMPTY_FILTER, hasMoreFilters, isFiltered, parseFilter, serializeFilter } from './invoice-filter';

describe('the invoices filter in the URL', () => {
  it('reads the links the header makes: ?search= stays in the first row, ?issuer= opens «Más filtros»', () => {
    const bySearch = parseFilter(new URLSearchParams('search=F001-123'));
    expect(bySearch).toMatchObject({ search: 'F001-123', mode: 'HES' });
    expect(hasMoreFilters(bySearch)).toBe(false);
    const byIssuer = parseFilter(new URLSearchParams('issuer=20456178325'));
    expect(byIssuer.issuer).toBe('20456178325');
    expect(hasMoreFilters(byIssuer)).toBe(true);
    for (const query of ['invoiceType=FACTURA', 'dueFrom=2026-12-01', 'observed=true', 'mode=MIGO'])
      expect(hasMoreFilters(parseFilter(new URLSearchParams(query))), query).toBe(true);
  });

  it('drops malformed or unknown values instead of sending them to the API', () => {
    const filter = parseFilter(
      new URLSearchParams('client=123&issuer=abc&invoiceStatus=PAID,NOPE&invoiceType=FACTURA,X&mode=OTRO'),
    );
    expect(filter).toEqual({ ...EMPTY_FILTER, invoiceStatus: ['PAID'], invoiceType: ['FACTURA'] });
    expect(isFiltered(parseFilter(new URLSearchParams('mode=MIGO')))).toBe(false);
  });

  it('writes one filter always the same way, and reads back what it wrote', () => {
    const filter = parseFilter(new URLSearchParams('invoiceStatus=PAID,PENDING&mode=MIGO&search=%20F001%20'));
    const written = serializeFilter(filter).toString();
    expect(written).toBe('invoiceStatus=PENDING%2CPAID&search=F001&mode=MIGO');
    expect(parseFilter(new URLSearchParams(written))).toEqual(filter);
    expect(serializeFilter(EMPTY_FILTER).toString()).toBe('');
  });

  it('reads and writes "vence entre" as two ISO dates, dropping a day that does not exist', () => {
    const filter = parseFilter(new URLSearchParams('dueFrom=2026-12-01&dueTo=2026-12-15'));
    expect(filter).toMatchObject({ dueFrom: '2026-12-01', dueTo: '2026-12-15' });
    expect(isFiltered(filter)).toBe(true);
    expect(serializeFilter(filter).toString()).toBe('dueFrom=2026-12-01&dueTo=2026-12-15');
    expect(parseFilter(new URLSearchParams('dueFrom=2026-02-30&dueTo=15/12/26'))).toEqual(EMPTY_FILTER);
  });

  it('keeps the Ley 29623 filter: one known state, written back the same way', () => {
    const filter = parseFilter(new URLSearchParams('acquirerConformity=OPEN'));
    expect(filter.acquirerConformity).toBe('OPEN');
    expect(isFiltered(filter)).toBe(true);
    expect(serializeFilter(filter).toString()).toBe('acquirerConformity=OPEN');
    expect(parseFilter(new URLSearchParams('acquirerConformity=VENCIDA')).acquirerConformity).toBeUndefined();
  });

  it('keeps "Solo observadas" as observed=true, and nothing else for it', () => {
    const filter = parseFilter(new URLSearchParams('observed=true'));
    expect(filter.observed).toBe(true);
    expect(isFiltered(filter)).toBe(true);
    expect(serializeFilter(filter).toString()).toBe('observed=true');
    expect(parseFilter(new URLSearchParams('observed=1'))).toEqual(EMPTY_FILTER);
  });
});
