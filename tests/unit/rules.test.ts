import { describe, expect, it } from 'vitest';
import {
  computeLevel,
  formatDate,
  formatMoney,
  isValidRuc,
  parseGroups,
  parseTaxIds,
  rucCheckDigit,
} from '@portal/shared';

describe('RUC check digit (modulo 11)', () => {
  it('accepts RUCs whose last digit is the modulo-11 check digit', () => {
    // 20100070970 and 20131312955 are published RUCs of Peruvian companies.
    expect(isValidRuc('20100070970')).toBe(true);
    expect(isValidRuc('20131312955')).toBe(true);
  });

  it('refuses a wrong check digit, a wrong length, letters and unknown prefixes', () => {
    expect(isValidRuc('20100070971')).toBe(false);
    expect(isValidRuc('2010007097')).toBe(false);
    expect(isValidRuc('2010007097A')).toBe(false);
    expect(isValidRuc('30100070970')).toBe(false);
  });

  it('maps remainders 10 and 11 to check digits 0 and 1', () => {
    // Weighted sums: 2010000005 → 45 (45 mod 11 = 1, so 11 - 1 = 10 → 0); 2010000013 → 44 (→ 11 → 1).
    expect(rucCheckDigit('2010000005')).toBe(0);
    expect(rucCheckDigit('2010000013')).toBe(1);
    expect(isValidRuc('20100000050')).toBe(true);
    expect(isValidRuc('20100000131')).toBe(true);
  });
});

describe('es-PE formatting (spec §9)', () => {
  it('shows soles and dollars with their prefixes, Peruvian grouping and two decimals', () => {
    expect(formatMoney(1234567.5, 'PEN')).toBe('S/ 1,234,567.50');
    expect(formatMoney(99, 'USD')).toBe('$ 99.00');
    expect(formatMoney(0.5)).toBe('S/ 0.50');
  });

  it('shows dates as dd/mm/yy', () => {
    expect(formatDate('2026-03-07')).toBe('07/03/26');
    expect(formatDate('2026-11-22T15:00:00.000Z')).toBe('22/11/26');
    expect(formatDate(null)).toBe('—');
  });
});

describe('level from the sign-in (spec §6)', () => {
  it('makes SSO users ADMIN only when their first group is the admin group', () => {
    expect(computeLevel({ federated: true, groups: ['portal-admins'], adminGroupName: 'portal-admins' })).toBe('ADMIN');
    expect(computeLevel({ federated: true, groups: ['staff', 'portal-admins'], adminGroupName: 'portal-admins' })).toBe(
      'MANAGER',
    );
    expect(computeLevel({ federated: true, groups: [], adminGroupName: 'portal-admins' })).toBe('MANAGER');
  });

  it('makes every user who did not sign in through SSO a SUPPLIER, whatever its groups', () => {
    expect(computeLevel({ federated: false, groups: ['portal-admins'], adminGroupName: 'portal-admins' })).toBe(
      'SUPPLIER',
    );
  });

  it('reads taxId and group lists in their token forms', () => {
    expect(parseTaxIds('20100070970, 20131312955,')).toEqual(['20100070970', '20131312955']);
    expect(parseTaxIds('')).toEqual([]);
    expect(parseGroups('["a","b"]')).toEqual(['a', 'b']);
    expect(parseGroups('a,b')).toEqual(['a', 'b']);
    // A multi-valued SAML attribute as Cognito stores it: the admin group first still counts.
    expect(parseGroups('[portal-admins, portal-staff]')).toEqual(['portal-admins', 'portal-staff']);
    expect(parseGroups('[portal-admins')).toEqual([]);
  });
});
