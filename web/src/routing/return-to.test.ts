import { describe, expect, it } from 'vitest';
import { returnPathOf, returnStateFor, safeReturnPath } from './return-to';

describe('where the login sends a user back to', () => {
  it('keeps the address the guard stopped, with its query', () => {
    const link = { pathname: '/invoices/20456178325/FACTURA/F001-123', search: '?search=F001-123' };
    expect(returnStateFor(link)).toEqual({ returnTo: '/invoices/20456178325/FACTURA/F001-123?search=F001-123' });
    expect(returnPathOf(returnStateFor(link))).toBe('/invoices/20456178325/FACTURA/F001-123?search=F001-123');
    expect(returnStateFor({ pathname: '/dashboard', search: '?month=3&year=2026' })).toEqual({
      returnTo: '/dashboard?month=3&year=2026',
    });
  });

  it('has nothing to keep for the home page, which the login opens anyway', () => {
    expect(returnStateFor({ pathname: '/', search: '' })).toBeUndefined();
  });

  it('never leaves the site nor returns to the login', () => {
    for (const value of [
      'https://evil.example/invoices',
      '//evil.example/invoices',
      '/\\evil.example',
      'invoices',
      '/login',
      '/login?code=1&state=2',
      '/invoices\u0000',
      '',
      42,
      null,
      undefined,
    ]) {
      expect(safeReturnPath(value)).toBeNull();
    }
    expect(returnPathOf({ returnTo: '//evil.example' })).toBeNull();
    expect(returnPathOf('not a state')).toBeNull();
    expect(returnPathOf(null)).toBeNull();
  });
});
