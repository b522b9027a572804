import { describe, expect, it } from 'vitest';
import { SUGGESTION_LIMITS, suggestCombinations } from './conformity-suggestions.js';

const doc = (documentId: string, amount: number) => ({ documentId, amount });
const idsOf = (result: ReturnType<typeof suggestCombinations<{ documentId: string; amount: number }>>) =>
  result.combinations.map((combination) => combination.documents.map((d) => d.documentId).sort());

describe('suggested HES and MIGO (subset sum in cents)', () => {
  it('proposes the documents that add up exactly, before the nearest ones', () => {
    const result = suggestCombinations([doc('H1', 600), doc('H2', 400), doc('H3', 150.5), doc('H4', 999)], 1000);

    expect(result.complete).toBe(true);
    expect(result.combinations[0]).toMatchObject({ total: 1000, difference: 0, exact: true });
    expect(idsOf(result)[0]).toEqual(['H1', 'H2']);
    expect(result.combinations[1]).toMatchObject({ total: 999, difference: -1, exact: false });
    expect(result.combinations.slice(1).every((c) => !c.exact)).toBe(true);
  });

  it('adds in cents: 0.10 + 0.20 makes 0.30 exactly', () => {
    const result = suggestCombinations([doc('H1', 0.1), doc('H2', 0.2), doc('H3', 5)], 0.3);

    expect(idsOf(result)[0]).toEqual(['H1', 'H2']);
    expect(result.combinations[0]).toMatchObject({ total: 0.3, difference: 0, exact: true });
  });

  it('counts a one-cent difference as rounding, as the §5 amount rule does', () => {
    const result = suggestCombinations([doc('H1', 500.01), doc('H2', 700)], 500);

    expect(result.combinations[0]).toMatchObject({ exact: true, difference: 0.01 });
  });

  it('among exact combinations, puts the one with fewer documents first', () => {
    const result = suggestCombinations([doc('A', 250), doc('B', 250), doc('C', 500), doc('D', 100)], 500);

    expect(idsOf(result).slice(0, 2)).toEqual([['C'], ['A', 'B']]);
    expect(result.combinations.slice(0, 2).every((c) => c.exact)).toBe(true);
  });

  it('with no exact combination, proposes the closest by absolute difference, over or under', () => {
    const result = suggestCombinations([doc('H1', 300), doc('H2', 450), doc('H3', 820)], 760);

    // 300 + 450 is 10 short, 820 is 60 over.
    expect(result.combinations[0]).toMatchObject({ total: 750, difference: -10, exact: false });
    expect(result.combinations[1]).toMatchObject({ total: 820, difference: 60, exact: false });
    const gaps = result.combinations.map((c) => Math.abs(c.difference));
    expect(gaps).toEqual([...gaps].sort((a, b) => a - b));
  });

  it('breaks a tie in difference with fewer documents', () => {
    const result = suggestCombinations([doc('A', 60), doc('B', 40), doc('C', 110)], 90);

    // A + B is 10 over, C 20 over, A alone 30 short.
    expect(idsOf(result).slice(0, 3)).toEqual([['A', 'B'], ['C'], ['A']]);
    const tie = suggestCombinations([doc('A', 60), doc('B', 40), doc('C', 110)], 105);
    // 100 (A+B, 5 short) and 110 (C, 5 over): the single document first.
    expect(idsOf(tie).slice(0, 2)).toEqual([['C'], ['A', 'B']]);
  });

  it('answers nothing when there is nothing to combine', () => {
    expect(suggestCombinations([], 1000)).toEqual({ combinations: [], complete: true });
    expect(suggestCombinations([doc('Z', 0)], 1000).combinations).toEqual([]);
  });

  it('answers at most the bounded number of combinations', () => {
    const many = Array.from({ length: 12 }, (_, i) => doc(`H${i}`, 100 + i));
    const result = suggestCombinations(many, 500);

    expect(result.combinations).toHaveLength(SUGGESTION_LIMITS.suggestions);
  });

  it('stays fast on an order with many sheets and says when its bound cut the search', () => {
    // 300 sheets of near-equal amounts: no exact sum, a huge search space.
    const many = Array.from({ length: 300 }, (_, i) => doc(`H${String(i).padStart(3, '0')}`, 1000 + i * 0.37));
    const started = performance.now();
    const result = suggestCombinations(many, 5000.5);
    const elapsed = performance.now() - started;

    expect(elapsed).toBeLessThan(1000);
    expect(result.complete).toBe(false);
    expect(result.combinations.length).toBeGreaterThan(0);
    expect(Math.abs(result.combinations[0]!.difference)).toBeLessThan(5);
  });

  it('finds the exact pair among many sheets when it exists', () => {
    const many = Array.from({ length: 200 }, (_, i) => doc(`H${i}`, 10_000 + i * 13));
    const result = suggestCombinations([...many, doc('X1', 1234.56), doc('X2', 765.44)], 2000);

    expect(idsOf(result)[0]).toEqual(['X1', 'X2']);
    expect(result.combinations[0]!.exact).toBe(true);
  });

  it('never puts more documents in one combination than an invoice takes', () => {
    const small = Array.from({ length: 40 }, (_, i) => doc(`M${i}`, 1));
    const result = suggestCombinations(small, 40, { ...SUGGESTION_LIMITS, documents: 30 });

    for (const combination of result.combinations) expect(combination.documents.length).toBeLessThanOrEqual(30);
    expect(result.combinations[0]).toMatchObject({ total: 30, difference: -10 });
  });

  it('uses every document once at most', () => {
    const result = suggestCombinations([doc('H1', 500)], 1000);

    expect(result.combinations).toHaveLength(1);
    expect(result.combinations[0]).toMatchObject({ total: 500, difference: -500, exact: false });
  });
});
