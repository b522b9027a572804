import { describe, expect, it } from 'vitest';
import { FOURTH_CATEGORY_WITHHOLDING, checkFourthCategoryWithholding } from './honorarios.js';

// Retención de 4ta categoría on a recibo por honorarios: 8 % above S/ 1,500 (LIR arts. 71 b and 74; R.S. 013-2007/SUNAT).

describe('checkFourthCategoryWithholding', () => {
  it('accepts the 8 % withheld from a receipt above S/ 1,500, to the cent either way', () => {
    expect(checkFourthCategoryWithholding({ currency: 'PEN', gross: 2000, withheld: 160 })).toEqual({
      kind: 'WITHHELD',
      stated: 160,
    });
    expect(checkFourthCategoryWithholding({ currency: 'PEN', gross: 1500.13, withheld: 120.02 }).kind).toBe('WITHHELD');
  });

  it('expects no retention on S/ 1,500 or less, and says so when one is stated', () => {
    expect(checkFourthCategoryWithholding({ currency: 'PEN', gross: 1500, withheld: 0 })).toEqual({ kind: 'NOT_DUE' });
    expect(checkFourthCategoryWithholding({ currency: 'PEN', gross: 1200, withheld: 96 })).toEqual({
      kind: 'NOT_APPLICABLE',
      stated: 96,
    });
  });

  it('points out a missing retention above S/ 1,500 with the 8 % due', () => {
    expect(checkFourthCategoryWithholding({ currency: 'PEN', gross: 1500.01, withheld: 0 })).toEqual({
      kind: 'MISSING',
      expected: 120,
    });
    expect(checkFourthCategoryWithholding({ currency: 'PEN', gross: 2500, withheld: 0 })).toEqual({
      kind: 'MISSING',
      expected: 200,
    });
  });

  it('points out a retention that is not 8 %', () => {
    expect(checkFourthCategoryWithholding({ currency: 'PEN', gross: 2000, withheld: 200 })).toEqual({
      kind: 'WRONG_AMOUNT',
      stated: 200,
      expected: 160,
    });
  });

  it('cannot tell the threshold of a receipt in dollars without a retention, and checks the rate of one with it', () => {
    expect(checkFourthCategoryWithholding({ currency: 'USD', gross: 1000, withheld: 0 })).toEqual({
      kind: 'FOREIGN_CURRENCY',
      expected: 80,
    });
    expect(checkFourthCategoryWithholding({ currency: 'USD', gross: 1000, withheld: 80 }).kind).toBe('WITHHELD');
    expect(FOURTH_CATEGORY_WITHHOLDING).toEqual({ rate: 0.08, thresholdPen: 1500 });
  });
});
