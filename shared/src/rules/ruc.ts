const WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2] as const;
const VALID_PREFIXES = ['10', '15', '16', '17', '20'];

/** SUNAT's modulo-11 check digit for the first ten digits of a RUC. */
export function rucCheckDigit(firstTen: string): number {
  let sum = 0;
  for (let i = 0; i < WEIGHTS.length; i++) sum += Number(firstTen[i]) * WEIGHTS[i]!;
  const digit = 11 - (sum % 11);
  return digit === 10 ? 0 : digit === 11 ? 1 : digit;
}

/** A RUC is 11 digits with a known taxpayer prefix and a valid modulo-11 check digit. */
export function isValidRuc(ruc: string): boolean {
  if (!/^\d{11}$/.test(ruc)) return false;
  if (!VALID_PREFIXES.includes(ruc.slice(0, 2))) return false;
  return rucCheckDigit(ruc.slice(0, 10)) === Number(ruc[10]);
}

/** Completes ten digits with their check digit (used by the seed). */
export function withCheckDigit(firstTen: string): string {
  return firstTen + String(rucCheckDigit(firstTen));
}
