import type { Currency } from '../domain.js';

/**
 * Retención del impuesto a la renta de cuarta categoría on a recibo por honorarios (docs/ap-documents.md):
 * - who pays honorarios that are 4ta categoría income for the issuer withholds 8 % of the gross amount
 *   (Ley del Impuesto a la Renta, TUO D.S. 179-2004-EF, arts. 71 b) and 74; 8 % since Ley 30296, 2015);
 * - no retention on a receipt of S/ 1,500 or less, nor when the issuer holds SUNAT's authorisation to
 *   suspend its retentions (R.S. 013-2007/SUNAT and D.S. 215-2006-EF). The threshold was read as still
 *   S/ 1,500 for 2025 (contadoresyempresas.com.pe, «Retención de cuarta categoría: reglas a considerar en 2025»;
 *   lga.pe, «Multa por no retener renta de 4ta categoría 2025»).
 * The portal does not know of a suspension, so a missing retention above the threshold is pointed out, not refused.
 */
export const FOURTH_CATEGORY_WITHHOLDING = {
  rate: 0.08,
  /** In soles: a receipt above it is subject to the retention. */
  thresholdPen: 1500,
} as const;

export type FourthCategoryWithholdingCheck =
  /** The retention stated is the 8 % due. */
  | { readonly kind: 'WITHHELD'; readonly stated: number }
  /** No retention, none due (S/ 1,500 or less). */
  | { readonly kind: 'NOT_DUE' }
  /** Above S/ 1,500 without a retention: due unless the issuer holds a suspension. */
  | { readonly kind: 'MISSING'; readonly expected: number }
  /** A retention on a receipt of S/ 1,500 or less. */
  | { readonly kind: 'NOT_APPLICABLE'; readonly stated: number }
  /** A retention that is not 8 % of the gross amount. */
  | { readonly kind: 'WRONG_AMOUNT'; readonly stated: number; readonly expected: number }
  /** A receipt in dollars without a retention: whether it exceeds S/ 1,500 depends on the exchange rate. */
  | { readonly kind: 'FOREIGN_CURRENCY'; readonly expected: number };

const cents = (amount: number) => Math.round(amount * 100);

/** What the retention stated on a recibo por honorarios of `gross` (the honorarios before the retention) says. */
export function checkFourthCategoryWithholding(receipt: {
  readonly currency: Currency;
  readonly gross: number;
  readonly withheld: number;
}): FourthCategoryWithholdingCheck {
  const expected = cents(receipt.gross * FOURTH_CATEGORY_WITHHOLDING.rate) / 100;
  const stated = receipt.withheld;
  if (stated > 0) {
    if (receipt.currency === 'PEN' && receipt.gross <= FOURTH_CATEGORY_WITHHOLDING.thresholdPen) {
      return { kind: 'NOT_APPLICABLE', stated };
    }
    // One cent either way: the 8 % rounded by whoever issued it.
    if (Math.abs(cents(stated) - cents(expected)) > 1) return { kind: 'WRONG_AMOUNT', stated, expected };
    return { kind: 'WITHHELD', stated };
  }
  if (receipt.currency !== 'PEN') return { kind: 'FOREIGN_CURRENCY', expected };
  if (receipt.gross > FOURTH_CATEGORY_WITHHOLDING.thresholdPen) return { kind: 'MISSING', expected };
  return { kind: 'NOT_DUE' };
}
