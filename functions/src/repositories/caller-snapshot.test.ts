import { describe, expect, it } from 'vitest';
import type { Caller } from '../http/caller.js';
import { CallerSnapshot, callerOfSnapshot, callerSnapshot } from './caller-snapshot.js';

const analyst: Caller = {
  sub: 'sub-analyst',
  machine: null,
  username: 'analista@grupoandino.pe',
  email: 'analista@grupoandino.pe',
  firstName: 'Lucía',
  lastName: 'Quispe',
  level: 'MANAGER',
  taxIds: ['20100070970'],
  groups: ['ANALISTA'],
  activeCompany: '20100070970',
  expiresAt: 1_800_000_000,
  signIn: 'CORPORATE',
  txId: 'req-42',
};

describe('a caller kept with a deferred job', () => {
  it('acts later as the same person, with the same reach and audit actor, whatever its token', () => {
    const stored = CallerSnapshot.parse(JSON.parse(JSON.stringify(callerSnapshot(analyst))));
    const later = callerOfSnapshot(stored);
    expect(later).toEqual({ ...analyst, machine: undefined, expiresAt: Number.MAX_SAFE_INTEGER });
    expect(later.signIn).toBe('CORPORATE');
    expect(later.txId).toBe('req-42');
  });

  it('copies the lists, so a later change to the caller does not change the job', () => {
    const taxIds = ['20100070970'];
    const snapshot = callerSnapshot({ ...analyst, taxIds });
    taxIds.push('20999999999');
    expect(snapshot.taxIds).toEqual(['20100070970']);
  });

  it('reads a job stored before the audit trail as a password sign-in with no request id', () => {
    const { signIn: _signIn, txId: _txId, ...old } = callerSnapshot(analyst);
    const later = callerOfSnapshot(CallerSnapshot.parse(old));
    expect(later.signIn).toBe('PASSWORD');
    expect(later.txId).toBe('');
  });

  it('refuses a stored sign-in no person has (a worker is never the one who asked)', () => {
    for (const signIn of ['SYSTEM', 'password', '']) {
      expect(CallerSnapshot.safeParse({ ...callerSnapshot(analyst), signIn }).success).toBe(false);
    }
  });
});
