import { describe, expect, it } from 'vitest';
import { FOURTH_CATEGORY_WITHHOLDING, checkFourthCategoryWithholding } from './honorarios.js';

// Retención de 4ta categoría on a recibo por honorarios: 8 % above S/ 1,500 (LIR arts. 71 b and 74; R.S. 013-2007/SUNAT).

type Receipt = Parameters<typeof checkFourthCategoryWithholding>[0];
type Verdict = ReturnType<typeof checkFourthCategoryWithholding>;

const PEN = (gross: number, withheld: number): Receipt => ({ currency: 'PEN', gross, withheld });

describe('checkFourthCategoryWithholding', () => {
  it.each<[string, Receipt, Verdict]>([
    ['accepts the 8 % withheld from a receipt above S/ 1,500', PEN(2000, 160), { kind: 'WITHHELD', stated: 160 }],
    ['expects no retention on S/ 1,500 or less', PEN(1500, 0), { kind: 'NOT_DUE' }],
    ['says so when a retention is stated on S/ 1,500 or less', PEN(1200, 96), { kind: 'NOT_APPLICABLE', stated: 96 }],
    [
      'points out a missing retention above S/ 1,500 with the 8 % due',
      PEN(1500.01, 0),
      { kind: 'MISSING', expected: 120 },
    ],
    [
      'points out a missing retention with the 8 % due on a larger receipt',
      PEN(2500, 0),
      { kind: 'MISSING', expected: 200 },
    ],
    ['points out a retention that is not 8 %', PEN(2000, 200), { kind: 'WRONG_AMOUNT', stated: 200, expected: 160 }],
    [
      'cannot tell the threshold of a receipt in dollars without a retention',
      { currency: 'USD', gross: 1000, withheld: 0 },
      { kind: 'FOREIGN_CURRENCY', expected: 80 },
    ],
  ])('%s', (_title, receipt, verdict) => {
    expect(checkFourthCategoryWithholding(receipt)).toEqual(verdict);
  });

  it('accepts the 8 % to the cent either way, and checks the rate of a retention in dollars', () => {
    expect(checkFourthCategoryWithholding(PEN(1500.13, 120.02)).kind).toBe('WITHHELD');
    expect(checkFourthCategoryWithholding({ currency: 'USD', gross: 1000, withheld: 80 }).kind).toBe('WITHHELD');
    expect(FOURTH_CATEGORY_WITHHOLDING).toEqual({ rate: 0.08, thresholdPen: 1500 });
  });
});
