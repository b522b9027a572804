import { describe, expect, it } from 'vitest';
import { routes } from '@portal/shared';
import {
  DEFAULT_INVOICES_PAGE_SIZE,
  INVOICES_PAGE_SIZES,
  isInvoicesPageSize,
  parseInvoicesPageSize,
} from './page-size';

describe("the invoices screen's page size", () => {
  it('offers only sizes GET /invoices accepts as its limit, the default among them', () => {
    const query = routes.listInvoices.request.query!;
    for (const size of INVOICES_PAGE_SIZES) {
      expect(query.safeParse({ limit: String(size) }).success).toBe(true);
    }
    expect(isInvoicesPageSize(DEFAULT_INVOICES_PAGE_SIZE)).toBe(true);
  });

  it('reads back a stored size, and the default for anything else', () => {
    expect(parseInvoicesPageSize('50')).toBe(50);
    expect(parseInvoicesPageSize('100')).toBe(100);
    for (const stored of [null, undefined, '', '0', '30', '500', '50.5', '5e1', 'abc', '-20', ' ']) {
      expect(parseInvoicesPageSize(stored)).toBe(DEFAULT_INVOICES_PAGE_SIZE);
    }
  });
});
