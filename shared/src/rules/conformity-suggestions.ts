import { toCents } from './money.js';

/**
 * Which open HES or MIGO of a purchase order add up to an invoice's amount without IGV
 * (docs/adr/0029-hes-migo-suggestions.md): a subset sum in integer cents, bounded so that an order with
 * many documents still answers at once. Exact combinations come first (fewer documents first), then the
 * closest by absolute difference (ties: fewer documents). `complete` is false when a bound cut the search.
 */
export const SUGGESTION_LIMITS = {
  /** Documents searched: beyond this, the first ones as given (the listing's order, newest first). */
  candidates: 40,
  /** Combinations answered. */
  suggestions: 5,
  /** Combinations looked at before the search stops with what it has. */
  steps: 20_000,
  /** Documents in one combination: UpdateInvoiceBody takes at most 30 HES or MIGO. */
  documents: 30,
} as const;

/** A difference up to one cent is rounding (review.ts AMOUNT_TOLERANCE), so the combination is exact. */
const EXACT_CENTS = 1;

export interface SuggestionLimits {
  readonly candidates: number;
  readonly suggestions: number;
  readonly steps: number;
  readonly documents: number;
}

export interface Combination<T> {
  readonly documents: readonly T[];
  /** Sum of the documents' amounts. */
  readonly total: number;
  /** total − target: negative when the documents fall short. */
  readonly difference: number;
  readonly exact: boolean;
}

export interface Suggestions<T> {
  readonly combinations: readonly Combination<T>[];
  /** False when a bound (candidates or steps) cut the search: a better combination may exist. */
  readonly complete: boolean;
}

/** The order of the answer: exact first (fewer documents first), then by absolute difference, then fewer documents. */
export function compareCombinations(a: Combination<unknown>, b: Combination<unknown>): number {
  if (a.exact !== b.exact) return a.exact ? -1 : 1;
  const gapA = Math.abs(toCents(a.difference));
  const gapB = Math.abs(toCents(b.difference));
  if (!a.exact && gapA !== gapB) return gapA - gapB;
  return a.documents.length - b.documents.length || gapA - gapB;
}

interface Found {
  readonly picks: readonly number[];
  readonly cents: number;
  readonly gap: number;
}

/** Exact first, then the nearest; ties by fewer documents, then by the documents' order for a stable answer. */
function rank(a: Found, b: Found): number {
  const exactA = a.gap <= EXACT_CENTS;
  const exactB = b.gap <= EXACT_CENTS;
  if (exactA !== exactB) return exactA ? -1 : 1;
  if (!exactA && a.gap !== b.gap) return a.gap - b.gap;
  if (a.picks.length !== b.picks.length) return a.picks.length - b.picks.length;
  if (a.gap !== b.gap) return a.gap - b.gap;
  for (let i = 0; i < a.picks.length; i += 1) {
    const diff = a.picks[i]! - b.picks[i]!;
    if (diff !== 0) return diff;
  }
  return 0;
}

/**
 * The combinations of `documents` whose amounts best add up to `target`. Amounts are money of at most two
 * decimals; documents without a positive amount are left out (they change no sum).
 */
export function suggestCombinations<T extends { readonly documentId: string; readonly amount: number }>(
  documents: readonly T[],
  target: number,
  limits: SuggestionLimits = SUGGESTION_LIMITS,
): Suggestions<T> {
  const goal = toCents(target);
  const usable = documents.filter((doc) => toCents(doc.amount) > 0);
  // A document of the target's amount or more can only be suggested by itself; every one of them is.
  const parts = usable.filter((doc) => toCents(doc.amount) < goal);
  // Beyond the bound, the first parts as given (the listing's order, newest first).
  const pool = parts
    .slice(0, limits.candidates)
    // Smallest first: once a sum overshoots by the worst kept gap, every later document does too.
    .sort((a, b) => toCents(a.amount) - toCents(b.amount) || a.documentId.localeCompare(b.documentId));
  const alone = usable.filter((doc) => !pool.includes(doc));
  const searched = [...pool, ...alone];
  const cents = searched.map((doc) => toCents(doc.amount));
  const rest: number[] = new Array<number>(pool.length + 1).fill(0);
  for (let i = pool.length - 1; i >= 0; i -= 1) rest[i] = rest[i + 1]! + cents[i]!;

  const kept: Found[] = [];
  let steps = 0;
  let stopped = parts.length > pool.length;
  const bound = () => Math.max(kept.length < limits.suggestions ? Infinity : kept[kept.length - 1]!.gap, EXACT_CENTS);
  const keep = (found: Found) => {
    if (kept.length >= limits.suggestions && rank(found, kept[kept.length - 1]!) >= 0) return;
    kept.push(found);
    kept.sort(rank);
    if (kept.length > limits.suggestions) kept.pop();
  };

  const search = (start: number, sum: number, picks: readonly number[]): void => {
    // Even all the remaining documents cannot bring the sum near enough.
    if (goal - (sum + rest[start]!) > bound()) return;
    for (let i = start; i < pool.length; i += 1) {
      if (steps >= limits.steps) {
        stopped = true;
        return;
      }
      steps += 1;
      const next = sum + cents[i]!;
      const chosen = [...picks, i];
      keep({ picks: chosen, cents: next, gap: Math.abs(next - goal) });
      // Adding more, or a larger document instead, only grows the overshoot.
      if (next - goal >= bound()) return;
      if (chosen.length < limits.documents) search(i + 1, next, chosen);
    }
  };
  search(0, 0, []);
  for (let i = pool.length; i < searched.length; i += 1)
    keep({ picks: [i], cents: cents[i]!, gap: Math.abs(cents[i]! - goal) });

  return {
    complete: !stopped,
    combinations: kept.map((found) => ({
      documents: found.picks.map((index) => searched[index]!),
      total: found.cents / 100,
      difference: (found.cents - goal) / 100,
      exact: found.gap <= EXACT_CENTS,
    })),
  };
}

export interface KindSuggestion<K, T> extends Combination<T> {
  readonly kind: K;
}

/**
 * The suggestions over documents of several kinds (HES, MIGO): each kind is combined on its own, since §5 never
 * puts both on one invoice, and the answers are merged in the order of compareCombinations.
 */
export function suggestByKind<K, T extends { readonly documentId: string; readonly amount: number }>(
  groups: readonly { readonly kind: K; readonly documents: readonly T[] }[],
  target: number,
): { suggestions: KindSuggestion<K, T>[]; candidates: number; complete: boolean } {
  const found = groups.map((group) => ({ kind: group.kind, ...suggestCombinations(group.documents, target) }));
  return {
    suggestions: found
      .flatMap((each) => each.combinations.map((combination) => ({ kind: each.kind, ...combination })))
      .sort(compareCombinations),
    candidates: groups.reduce((sum, group) => sum + group.documents.length, 0),
    complete: found.every((each) => each.complete),
  };
}
