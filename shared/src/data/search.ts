import { keys, normalizeForSearch } from './table.js';

/**
 * The invoice search of the header and the list (spec §2: "Search invoices by invoice number, RUC or
 * business name"), through index items written with the invoice.
 *
 * An invoice is indexed by tokens, per scope of who may search it:
 * - every suffix of its series-number ("f001-458", "001-458", … "458", "58", "8"), so that any part of
 *   the number is the start of one token;
 * - the RUCs (whole: a RUC prefix is the start of the token);
 * - every word of the business names, accents and case folded.
 * A query's terms are looked up as token prefixes (`begins_with`), so "458", "129", "2045", "andin" and
 * "f001-458" all find. Tokens are kept in a fixed order on every index item of the invoice, so that an
 * invoice matched by several of its tokens is kept once (on its first matching token) and a query of
 * several terms is checked against all of them without reading the invoice.
 */

export const SEARCH_SCOPES = ['CLIENT', 'SUPPLIER'] as const;
export type SearchScope = (typeof SEARCH_SCOPES)[number];

export const SEARCH_LIMITS = {
  /** Words indexed of one business name (the first ones; a name rarely has more). */
  wordsPerName: 8,
  /** Characters of a token kept; a longer word is found by its first 40. */
  tokenLength: 40,
  /** Terms of one query used; the rest are ignored. */
  termsPerQuery: 6,
} as const;

/** What an invoice is searched by. */
export interface SearchSource {
  readonly id: string;
  readonly supplierId: string;
  readonly supplierName: string;
  readonly client: string;
  readonly clientName: string;
}

const distinct = (values: readonly string[]) => [...new Set(values.filter((value) => value.length > 0))];

/** The words of a name as tokens: folded, at most SEARCH_LIMITS.wordsPerName, each cut to the token length. */
export function nameTokens(name: string): string[] {
  const words = distinct(normalizeForSearch(name).split(' ')).map((word) => word.slice(0, SEARCH_LIMITS.tokenLength));
  return distinct(words).slice(0, SEARCH_LIMITS.wordsPerName);
}

/** Every suffix of a series-number, longest first: any part of it starts one of them. */
export function numberTokens(id: string): string[] {
  const number = id.toLowerCase().slice(0, SEARCH_LIMITS.tokenLength);
  return distinct(Array.from(number, (_, i) => number.slice(i)));
}

/**
 * The tokens worth an item (each is one more item in the invoice's transaction). Left out: a suffix of the
 * number from its dash ("-458": a query's terms never start with a dash, searchTerms, so no query reaches it), and a
 * name's one-letter word (the initials of "S.A.C.", "E.I.R.L.") when another token of the scope starts with the same
 * letter ("s" beside "servicios"): every term that starts it starts the longer one, where the invoice is then found.
 * What a query finds is the same; only a query of that one letter lists such an invoice among the longer tokens'
 * matches rather than its exact ones. The number's suffixes and longer words all stay: "458" lists F001-458 first.
 */
function worthAnItem(tokens: readonly string[], number: readonly string[]): string[] {
  return tokens.filter(
    (token) =>
      !token.startsWith('-') &&
      !(
        token.length === 1 &&
        !number.includes(token) &&
        tokens.some((other) => other !== token && other.startsWith(token))
      ),
  );
}

/**
 * The tokens of an invoice in each scope, in their fixed order. Staff search a company's invoices by the
 * supplier (number, RUC, name); a supplier searches its own by number, by the client (RUC, name) and by
 * its own RUC or name, which then finds everything it sent.
 */
export function invoiceSearchTokens(source: SearchSource): Record<SearchScope, string[]> {
  const number = numberTokens(source.id);
  const supplierName = nameTokens(source.supplierName);
  return {
    CLIENT: worthAnItem(distinct([...number, source.supplierId, ...supplierName]), number),
    SUPPLIER: worthAnItem(
      distinct([...number, source.client, source.supplierId, ...nameTokens(source.clientName), ...supplierName]),
      number,
    ),
  };
}

/**
 * The terms of a query, folded as tokens are: a term with a digit keeps its dashes (a series-number, with
 * the correlative's leading zeros dropped as the portal stores it), a word is split at them.
 */
export function searchTerms(text: string): string[] {
  const folded = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const terms = folded
    .split(/[^a-z0-9-]+/)
    .flatMap((raw) => (/\d/.test(raw) ? [raw.replace(/^-+/, '')] : raw.split('-')))
    .map((term) => term.replace(/^([a-z0-9]{1,4})-0+(?=\d)/, '$1-').slice(0, SEARCH_LIMITS.tokenLength));
  return distinct(terms).slice(0, SEARCH_LIMITS.termsPerQuery);
}

/** The term that drives a search: the longest, which matches the fewest tokens. */
export function drivingTerm(terms: readonly string[]): string | null {
  return terms.reduce<string | null>((best, term) => (best === null || term.length > best.length ? term : best), null);
}

/**
 * Whether an index item, read for `token`, is a hit of the query: the token is the invoice's smallest one
 * starting with the driving term (so the invoice is counted once, at its best place: an exact match sorts
 * before longer tokens), and every other term starts one of its tokens.
 */
export function isSearchHit(tokens: readonly string[], token: string, terms: readonly string[]): boolean {
  const driving = drivingTerm(terms);
  if (driving === null) return false;
  // The smallest matching token is where the (sorted) partition first meets the invoice: it counts there.
  const first = tokens.filter((candidate) => candidate.startsWith(driving)).sort()[0];
  if (first !== token) return false;
  return terms.every((term) => tokens.some((candidate) => candidate.startsWith(term)));
}

/**
 * The search items of an employee (the responsible of an invoice): one per word of its name, each holding
 * the employee and all its words, so that a query of several words is checked on the item itself.
 */
export function employeeWordItems(
  acquirer: string,
  employee: { readonly id: string; readonly fullName: string; readonly office: string; readonly active: boolean },
): Record<string, unknown>[] {
  const words = nameTokens(employee.fullName);
  return words.map((word) => ({ ...keys.employeeWord(acquirer, word, employee.id), ...employee, words }));
}

/**
 * What an invoice search item holds besides its key: which invoice, as of which submission, and its tokens. One item
 * serves both scopes where they share the token (ADR 0045): it lies in the company's partition (`tokens`, the company
 * scope's) and, through the supplier index's keys (`gsi2pk`, `gsi2sk`), in the supplier's (`supplierTokens`). A token
 * of the supplier's scope only (the company's RUC and name) has an item in the supplier's partition, read through the
 * same index.
 */
export type SearchItem = {
  readonly pk: string;
  readonly sk: string;
  readonly token: string;
  readonly supplierId: string;
  readonly type: string;
  readonly id: string;
  /** The submission it indexes: an item of an earlier submission (a replaced rejection) is stale. */
  readonly receivedAt: string;
  /** The tokens of the scope of its own key (`pk`). */
  readonly tokens: readonly string[];
  /** In the supplier's search (the index `bySupplier`): its keys there and the supplier scope's tokens. */
  readonly gsi2pk?: string;
  readonly gsi2sk?: string;
  readonly supplierTokens?: readonly string[];
};

/**
 * The search index items of an invoice in both scopes, written in the transaction that stores it: one per token of
 * the company's scope, also in the supplier's search when the supplier's scope has the token, and one per token of
 * the supplier's scope alone (the number's suffixes, the supplier's RUC and name were written twice).
 */
export function invoiceSearchItems(
  invoice: SearchSource & { readonly type: string; readonly receivedAt: string },
): SearchItem[] {
  const tokens = invoiceSearchTokens(invoice);
  const ofSupplier = new Set(tokens.SUPPLIER);
  const inSupplierSearch = (token: string, key: { sk: string }) => ({
    gsi2pk: keys.searchPartition('SUPPLIER', invoice.supplierId, token),
    gsi2sk: key.sk,
    supplierTokens: tokens.SUPPLIER,
  });
  const item = (scope: SearchScope, token: string): SearchItem => {
    const key = keys.searchEntry(scope, scope === 'CLIENT' ? invoice.client : invoice.supplierId, token, invoice);
    return {
      ...key,
      token,
      supplierId: invoice.supplierId,
      type: invoice.type,
      id: invoice.id,
      receivedAt: invoice.receivedAt,
      tokens: tokens[scope],
      ...(ofSupplier.has(token) ? inSupplierSearch(token, key) : {}),
    };
  };
  const ofClient = new Set(tokens.CLIENT);
  return [
    ...tokens.CLIENT.map((token) => item('CLIENT', token)),
    ...tokens.SUPPLIER.filter((token) => !ofClient.has(token)).map((token) => item('SUPPLIER', token)),
  ];
}

/**
 * The keys of an invoice's supplier-scope items as written before ADR 0045 (one per token of that scope, in the
 * supplier's own partition, read without an index): what the search items' migration deletes, but for the keys the
 * invoice's items now have.
 */
export function legacySupplierSearchKeys(
  invoice: SearchSource & { readonly type: string; readonly receivedAt: string },
): { pk: string; sk: string }[] {
  return invoiceSearchTokens(invoice).SUPPLIER.map((token) =>
    keys.searchEntry('SUPPLIER', invoice.supplierId, token, invoice),
  );
}
