/**
 * Money to the cent. Amounts travel as JavaScript numbers with at most two decimals (schemas `Money` and
 * `RequestMoney`); every computation of the payment rules (payment.ts) is done here in integer cents, so a
 * sum of cuotas or a net to pay never carries a binary fraction. A percentage is held in hundredths of a
 * percent (12 % → 1200, 1.5 % → 150) and applied with BigInt: cents × hundredths may pass 2^53.
 */

/** An amount of at most two decimals as integer cents (1234.5 → 123450). */
export function toCents(amount: number): number {
  return Math.round(amount * 100);
}

/** Integer cents as the amount the API carries (123450 → 1234.5). */
export function fromCents(cents: number): number {
  return cents / 100;
}

/** A percentage of at most two decimals as hundredths of a percent (12 → 1200, 1.5 → 150). */
export function toBasisPoints(percent: number): number {
  return Math.round(percent * 100);
}

/**
 * `percent` hundredths of a percent of `cents`, rounded half up to the cent: SUNAT's redondeo aritmético, the
 * one its validations apply to every amount of an electronic document (a third decimal of 5 or more rounds up).
 * For the non-negative amounts of the portal half up and half away from zero are the same.
 */
export function percentOfCents(cents: number, basisPoints: number): number {
  if (cents < 0 || basisPoints < 0) throw new RangeError('percentOfCents takes non-negative amounts and percentages');
  const scaled = BigInt(cents) * BigInt(basisPoints);
  return Number((scaled + 5_000n) / 10_000n);
}

/** The sum of amounts, added in cents. */
export function sumCents(amounts: readonly number[]): number {
  return amounts.reduce((sum, amount) => sum + toCents(amount), 0);
}
