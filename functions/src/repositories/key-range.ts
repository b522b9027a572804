/**
 * A sort-key prefix as the key range it stands for: `sk BETWEEN :from AND :to` reads exactly the keys that
 * `begins_with(sk, :from)` reads. DynamoDB orders string keys by their UTF-8 bytes; no key starting with the
 * prefix sorts above the prefix followed by U+10FFFF (the highest code point, a noncharacter no key holds), and
 * every key that sorts between them starts with the prefix.
 *
 * Why not begins_with: the two cost the same in DynamoDB (a seek, then the items read), but DynamoDB Local, the
 * local stage's and the benchmark's stand-in, runs begins_with as `hex(rangeKey) LIKE '<hex>%'` over every item
 * of the partition key — a search partition of a million invoices holds millions of items — while a BETWEEN
 * seeks in its index. The product's reads stay proportional to the page they read on both (docs/benchmarks.md,
 * the scale suite).
 */
export function prefixRange(prefix: string): { readonly from: string; readonly to: string } {
  if (prefix.length === 0) throw new Error('prefixRange: an empty prefix is every key, not a range');
  return { from: prefix, to: `${prefix}\u{10FFFF}` };
}
