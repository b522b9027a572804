import { describe, expect, it } from 'vitest';
import type { AcquirerConformity } from '../schemas/acquirer-conformity.js';
import { dashboardDelta } from './dashboard.js';
import {
  acquirerConformityView,
  addDays,
  allowedDecisions,
  conformityScopeOf,
  conformityStepAt,
  dueConformityStep,
  openAcquirerConformity,
  shownConformityDeadline,
  type CreditTerms,
} from './acquirer-conformity.js';

/** A moment given as Lima's wall clock (UTC-5 all year). */
const lima = (dateTime: string) => new Date(`${dateTime}-05:00`);

const credit = (...dueDates: string[]): CreditTerms => ({
  method: 'CREDITO',
  installments: dueDates.map((dueDate, i) => ({ number: i + 1, amount: 1180 / dueDates.length, dueDate })),
});

describe('the 8 calendar days of Ley 29623, counted from the reception (Código Civil art. 183)', () => {
  it.each([
    ['a plain week', '2026-11-10T10:00', '2026-11-10', '2026-11-18'],
    ['across the end of a 31-day month', '2026-01-28T09:00', '2026-01-28', '2026-02-05'],
    ['across February of a common year', '2026-02-25T16:30', '2026-02-25', '2026-03-05'],
    ['across February of a leap year', '2028-02-25T16:30', '2028-02-25', '2028-03-04'],
    ['across the end of the year', '2026-12-28T08:00', '2026-12-28', '2027-01-05'],
    ['late at night in Lima, already the next day in UTC', '2026-11-30T23:30', '2026-11-30', '2026-12-08'],
    ['just after midnight in Lima', '2026-12-01T00:00', '2026-12-01', '2026-12-09'],
  ])('%s: received %s (Lima) counts from %s, last day %s', (_case, received, countedFrom, deadline) => {
    const clock = openAcquirerConformity({ receivedAt: lima(received).toISOString() });

    expect(clock).toEqual({
      countedFrom,
      countedFromBasis: 'RECEPTION',
      deadline,
      state: 'OPEN',
      answers: [],
      presumedAt: null,
    });
  });

  it('moves dates by whole days, back and forth, month and year ends included', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addDays('2027-01-01', -2)).toBe('2026-12-30');
  });

  it('reminds at the start (Lima) of two days before and of the last day, and presumes when the last day ends', () => {
    expect(conformityStepAt('2026-12-08', 'REMIND_TWO_DAYS')).toEqual(lima('2026-12-06T00:00'));
    expect(conformityStepAt('2026-12-08', 'REMIND_LAST_DAY')).toEqual(lima('2026-12-08T00:00'));
    expect(conformityStepAt('2026-12-08', 'PRESUME')).toEqual(lima('2026-12-09T00:00'));
    expect(conformityStepAt('2026-03-01', 'REMIND_TWO_DAYS')).toEqual(lima('2026-02-27T00:00'));
  });

  it.each([
    ['before the first reminder', 'REMIND_TWO_DAYS', '2026-12-05T23:59', null],
    ['on the day of the first reminder', 'REMIND_TWO_DAYS', '2026-12-06T00:00', 'REMIND_TWO_DAYS'],
    [
      'on the last day, the first reminder never sent: only the last day is',
      'REMIND_TWO_DAYS',
      '2026-12-08T09:00',
      'REMIND_LAST_DAY',
    ],
    ['the last day ended with no reminder sent: the presumption', 'REMIND_TWO_DAYS', '2026-12-09T00:00', 'PRESUME'],
    ['the first reminder sent, the day before the last', 'REMIND_LAST_DAY', '2026-12-07T12:00', null],
    ['the last day still running', 'PRESUME', '2026-12-08T23:59', null],
  ] as const)('takes the step due %s', (_case, next, at, step) => {
    expect(dueConformityStep('2026-12-08', next, lima(at))).toBe(step);
  });
});

describe('what a read says of a clock', () => {
  const clock = openAcquirerConformity({ receivedAt: lima('2026-11-30T10:00').toISOString() }); // last day 08/12

  it.each([
    ['2026-11-30T23:59', 8],
    ['2026-12-05T23:59', 3],
    ['2026-12-06T00:00', 2],
    ['2026-12-08T23:59', 0],
    ['2026-12-09T00:01', -1],
  ])('at %s (Lima) %i days are left', (at, days) => {
    expect(acquirerConformityView(clock, { issuedAt: '2026-11-29' }, lima(at)).daysLeft).toBe(days);
  });

  it('says when SUNAT’s period ended at the latest: 2 days for the disposal after the issue, then 8', () => {
    const late = openAcquirerConformity({ receivedAt: lima('2026-11-20T10:00').toISOString() });

    expect(acquirerConformityView(late, { issuedAt: '2026-11-01' }, lima('2026-11-20T11:00'))).toMatchObject({
      deadline: '2026-11-28',
      latestLegalDeadline: '2026-11-11',
    });
    expect(acquirerConformityView(late, { issuedAt: '2026-11-19' }, lima('2026-11-20T11:00')).latestLegalDeadline).toBe(
      null,
    );
  });

  it('keeps nothing it computed when read again', () => {
    const read = acquirerConformityView(clock, { issuedAt: '2026-11-29' }, lima('2026-12-01T00:00'));
    const again = acquirerConformityView(read, { issuedAt: '2026-11-29' }, lima('2026-12-09T00:00'));

    expect(again).toMatchObject({ daysLeft: -1, answerableUntil: null });
  });
});

describe('which documents run the clock', () => {
  const factura = { type: 'FACTURA' as const, issuedAt: '2026-11-10' };

  it.each([
    [
      'a factura al crédito payable in 30 and 60 days',
      { ...factura, payment: credit('2026-12-10', '2027-01-09') },
      true,
    ],
    [
      'a recibo por honorarios al crédito',
      { ...factura, type: 'RECIBO_POR_HONORARIOS' as const, payment: credit('2026-12-10') },
      true,
    ],
    ['a crédito whose last cuota is 9 days after the issue', { ...factura, payment: credit('2026-11-19') }, true],
    [
      'a crédito with its first cuota within 8 days and the last later',
      { ...factura, payment: credit('2026-11-12', '2026-12-10') },
      true,
    ],
    ['a crédito stating no due date', { ...factura, payment: credit() }, true],
    [
      'a factura issued the day SUNAT’s platform began',
      { ...factura, issuedAt: '2021-12-17', payment: credit('2022-01-17') },
      true,
    ],
  ])('%s: yes', (_case, invoice, applies) => {
    expect(conformityScopeOf(invoice).applies).toBe(applies);
  });

  it.each([
    ['a boleta', { ...factura, type: 'BOLETA' as const, payment: credit('2026-12-10') }, 'DOCUMENT_TYPE'],
    [
      'a nota de crédito',
      { ...factura, type: 'NOTA_DE_CREDITO' as const, payment: credit('2026-12-10') },
      'DOCUMENT_TYPE',
    ],
    ['a factura al contado', { ...factura, payment: { method: 'CONTADO' as const, installments: [] } }, 'CASH'],
    ['a factura stored before the portal kept its payment', { ...factura, payment: null }, 'NO_PAYMENT_TERMS'],
    [
      'a crédito payable exactly 8 days after the issue',
      { ...factura, payment: credit('2026-11-18') },
      'PAYABLE_WITHIN_PERIOD',
    ],
    [
      'a crédito payable 8 days later across a month end',
      { type: 'FACTURA' as const, issuedAt: '2026-01-31', payment: credit('2026-02-08') },
      'PAYABLE_WITHIN_PERIOD',
    ],
    [
      'a factura issued before SUNAT’s platform',
      { ...factura, issuedAt: '2021-12-16', payment: credit('2022-01-17') },
      'BEFORE_PLATFORM',
    ],
  ])('%s: no (%s)', (_case, invoice, reason) => {
    expect(conformityScopeOf(invoice)).toEqual({ applies: false, reason });
  });
});

describe('what may still be registered', () => {
  const open = openAcquirerConformity({ receivedAt: lima('2026-11-30T10:00').toISOString() }); // last day 08/12
  const answered = (decision: 'CONFORMITY' | 'DISCONFORMITY', at: string): AcquirerConformity => ({
    ...open,
    state: decision,
    answers: [
      {
        decision,
        cause: decision === 'DISCONFORMITY' ? 'NET_AMOUNT' : null,
        reason: 'x',
        at: lima(at).toISOString(),
        by: 'g',
      },
    ],
  });

  it('either answer while the period runs, none once it ended', () => {
    expect(allowedDecisions(open, lima('2026-12-08T23:59'))).toEqual(['CONFORMITY', 'DISCONFORMITY']);
    expect(allowedDecisions(open, lima('2026-12-09T00:00'))).toEqual([]);
  });

  it('after a disconformity only conformity, until the last day; two days more after one on the last day', () => {
    const before = answered('DISCONFORMITY', '2026-12-03T10:00');
    expect(allowedDecisions(before, lima('2026-12-08T12:00'))).toEqual(['CONFORMITY']);
    expect(allowedDecisions(before, lima('2026-12-09T00:00'))).toEqual([]);
    const lastDay = answered('DISCONFORMITY', '2026-12-08T18:00');
    expect(allowedDecisions(lastDay, lima('2026-12-10T23:59'))).toEqual(['CONFORMITY']);
    expect(allowedDecisions(lastDay, lima('2026-12-11T00:00'))).toEqual([]);
  });

  it('nothing after conformity, expressed or presumed: it is irrevocable', () => {
    expect(allowedDecisions(answered('CONFORMITY', '2026-12-01T10:00'), lima('2026-12-02T00:00'))).toEqual([]);
    expect(allowedDecisions({ ...open, state: 'PRESUMED_CONFORMITY' }, lima('2026-12-02T00:00'))).toEqual([]);
  });
});

describe('the dashboard counts the clocks', () => {
  const invoice = { status: 'PENDING' as const, operationType: null };

  it('running as por vencer and presumed as vencidas, moving with every change', () => {
    expect(dashboardDelta(null, { ...invoice, acquirerConformity: { state: 'OPEN' } })).toMatchObject({
      acquirerConformityOpen: 1,
    });
    expect(
      dashboardDelta(
        { ...invoice, acquirerConformity: { state: 'OPEN' } },
        { ...invoice, acquirerConformity: { state: 'PRESUMED_CONFORMITY' } },
      ),
    ).toEqual({ acquirerConformityOpen: -1, acquirerConformityPresumed: 1 });
    expect(
      dashboardDelta(
        { ...invoice, acquirerConformity: { state: 'OPEN' } },
        { ...invoice, acquirerConformity: { state: 'CONFORMITY' } },
      ),
    ).toEqual({ acquirerConformityOpen: -1 });
  });
});

describe('the one conformity deadline the screens show', () => {
  it("is the portal's own, counted from the reception, for a document received within 2 days of its issue", () => {
    const clock = openAcquirerConformity({ receivedAt: '2026-11-10T15:00:00.000Z' });
    const view = acquirerConformityView(clock, { issuedAt: '2026-11-09' }, lima('2026-11-12T09:00'));
    expect(shownConformityDeadline(view)).toEqual({ date: '2026-11-18', daysLeft: 6, basis: 'RECEPTION' });
  });

  it("is SUNAT's latest, issue + 2 + 8 days, for a late document, with its own days left", () => {
    const clock = openAcquirerConformity({ receivedAt: '2026-11-10T15:00:00.000Z' });
    const view = acquirerConformityView(clock, { issuedAt: '2026-11-01' }, lima('2026-11-10T09:00'));
    expect(view.deadline).toBe('2026-11-18');
    expect(shownConformityDeadline(view)).toEqual({ date: '2026-11-11', daysLeft: 1, basis: 'ISSUE' });
  });
});
