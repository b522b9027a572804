import { describe, expect, it } from 'vitest';
import { keys, normalizeForSearch } from './table.js';
import { invoiceSearchItems, invoiceSearchTokens, isSearchHit, numberTokens, searchTerms } from './search.js';

const invoice = {
  id: 'F001-4580',
  type: 'FACTURA',
  supplierId: '20456178325',
  supplierName: 'Servicios Industriales Lima S.A.C.',
  client: '20100070970',
  clientName: 'Corporación Andina de Alimentos S.A.A.',
  receivedAt: '2026-11-20T15:00:00.000Z',
};

/** Whether the query finds the invoice in a scope, exactly as the search reads it: one hit among its items. */
function finds(query: string, scope: 'CLIENT' | 'SUPPLIER', source = invoice): number {
  const terms = searchTerms(query);
  const driving = [...terms].sort((a, b) => b.length - a.length)[0];
  if (!driving) return 0;
  // A company's search reads its partition of the table; a supplier's, its partition of the supplier index.
  return invoiceSearchItems(source).filter((item) =>
    scope === 'CLIENT'
      ? item.pk === keys.searchPartition(scope, source.client, driving) &&
        item.sk.startsWith(driving) &&
        isSearchHit(item.tokens, item.token, terms)
      : item.gsi2pk === keys.searchPartition(scope, source.supplierId, driving) &&
        item.gsi2sk!.startsWith(driving) &&
        isSearchHit(item.supplierTokens!, item.token, terms),
  ).length;
}

describe('the invoice search', () => {
  it('finds an invoice by any part of its number, once', () => {
    for (const query of ['458', '4580', '45', 'F001', 'f001-45', 'F001-4580', '001-4', '80', 'F001-0004580']) {
      expect({ query, staff: finds(query, 'CLIENT'), supplier: finds(query, 'SUPPLIER') }).toEqual({
        query,
        staff: 1,
        supplier: 1,
      });
    }
    expect(finds('4581', 'CLIENT')).toBe(0);
    expect(finds('F002', 'CLIENT')).toBe(0);
  });

  it('finds it once even where the query occurs twice in its number or in several of its tokens', () => {
    const repeated = { ...invoice, id: 'F001-10010' };
    expect(finds('10', 'CLIENT', repeated)).toBe(1);
    expect(finds('0', 'SUPPLIER', repeated)).toBe(1);
    // "20" starts the supplier's RUC, the client's RUC and no part of the number: still one hit.
    expect(finds('20', 'SUPPLIER')).toBe(1);
  });

  it('finds staff an invoice by the supplier: a RUC prefix or any word of its name, accents and case ignored', () => {
    for (const query of ['2045617', 'industriales', 'LIMA', 'indus lim']) expect(finds(query, 'CLIENT'), query).toBe(1);
    // The company's own name is not how staff tell its invoices apart.
    for (const query of ['indus callao', 'andina']) expect(finds(query, 'CLIENT'), query).toBe(0);
  });

  it("finds a supplier its invoice by the client's RUC or name, and by its own", () => {
    const queries = ['2010007', 'Corporacion', 'corporación andina', 'alimentos 4580', '20456178325', 'servicios'];
    for (const query of queries) expect(finds(query, 'SUPPLIER'), query).toBe(1);
  });

  it('folds a query as the tokens are folded, and ignores what only punctuates', () => {
    expect(searchTerms('  Ñandú  S.A.C. ')).toEqual(['nandu', 's', 'a', 'c']);
    expect(searchTerms('F001-00000458')).toEqual(['f001-458']);
    expect(searchTerms('Andes-Sur')).toEqual(['andes', 'sur']);
    expect(searchTerms('¿? — …')).toEqual([]);
  });

  it('indexes a bounded number of tokens, however long the names', () => {
    const long = {
      ...invoice,
      id: 'F001-12345678',
      supplierName: 'Una Razón Social Muy Larga Con Muchas Palabras Que Nadie Escribe Entera '.repeat(20),
      clientName: 'x'.repeat(1500),
    };
    const tokens = invoiceSearchTokens(long);
    expect(tokens.CLIENT.length).toBeLessThanOrEqual(13 + 1 + 8);
    expect(tokens.SUPPLIER.length).toBeLessThanOrEqual(13 + 2 + 16);
    expect(Math.max(...[...tokens.CLIENT, ...tokens.SUPPLIER].map((token) => token.length))).toBeLessThanOrEqual(40);
    expect(numberTokens('F001-12345678')).toHaveLength(13);
  });

  it('finds exactly what every part of the number, RUC prefix and name-word prefix finds, from fewer items', () => {
    // What a user may type, term by term: any part of the number, the start of a RUC or of a name's word.
    const number = invoice.id.toLowerCase();
    const parts = new Set<string>();
    for (let from = 0; from < number.length; from++)
      for (let to = from + 1; to <= number.length; to++) parts.add(number.slice(from, to));
    const words = (name: string) => normalizeForSearch(name).split(' ');
    const starts = (texts: readonly string[]) =>
      new Set(texts.flatMap((text) => Array.from(text, (_, i) => text.slice(0, i + 1))));
    const reach = {
      CLIENT: starts([invoice.supplierId, ...words(invoice.supplierName)]),
      SUPPLIER: starts([
        invoice.client,
        invoice.supplierId,
        ...words(invoice.clientName),
        ...words(invoice.supplierName),
      ]),
    };
    const single = [...parts, ...reach.SUPPLIER, 'x', '4581', 'callao', 'f002'];
    const queries = [...single, ...single.filter((_, i) => i % 7 === 0).map((term) => `${term} lima`)];
    for (const scope of ['CLIENT', 'SUPPLIER'] as const) {
      for (const query of queries) {
        const terms = searchTerms(query);
        const found = terms.length > 0 && terms.every((term) => parts.has(term) || reach[scope].has(term));
        expect({ scope, query, hits: finds(query, scope) }).toEqual({ scope, query, hits: found ? 1 : 0 });
      }
    }
    // "-4580" is reached by no query (a term never starts with a dash); "s" of S.A.C. starts "servicios".
    const tokens = invoiceSearchTokens(invoice);
    expect(tokens.SUPPLIER).not.toContain('-4580');
    expect(tokens.SUPPLIER).not.toContain('s');
    expect(tokens.CLIENT).not.toContain('s');
    // Every part of the number keeps its own token: "0" lists F001-4580 among the exact matches.
    expect(tokens.CLIENT).toEqual(expect.arrayContaining(['f001-4580', '4580', '80', '0']));
    expect(tokens.CLIENT).toContain('a');
    // 37 tokens before: the two dash suffixes and the four initials beside longer words are left out.
    expect(tokens.CLIENT.length + tokens.SUPPLIER.length).toBe(31);
  });

  it('writes one item per token, both scopes sharing the items of the tokens they share (ADR 0045)', () => {
    const tokens = invoiceSearchTokens(invoice);
    const items = invoiceSearchItems(invoice);
    const shared = tokens.CLIENT.filter((token) => tokens.SUPPLIER.includes(token));
    expect(shared.length).toBeGreaterThan(10);
    expect(items).toHaveLength(new Set([...tokens.CLIENT, ...tokens.SUPPLIER]).size);
    expect(items.length).toBe(tokens.CLIENT.length + tokens.SUPPLIER.length - shared.length);
    // Each token of a scope is in exactly one item of that scope's partitions, with that scope's tokens.
    const inClient = items.filter((item) => item.pk.startsWith('SEARCH#CLIENT#'));
    const inSupplier = items.filter((item) => item.gsi2pk !== undefined);
    expect(inClient.map((item) => item.token)).toEqual(tokens.CLIENT);
    expect(inSupplier.map((item) => item.token).sort()).toEqual([...tokens.SUPPLIER].sort());
    for (const item of inClient) expect(item.tokens).toEqual(tokens.CLIENT);
    for (const item of inSupplier) expect(item.supplierTokens).toEqual(tokens.SUPPLIER);
    expect(inSupplier.every((item) => item.gsi2sk === item.sk && item.gsi2sk.startsWith(`${item.token}#`))).toBe(true);
    // A token of the supplier's scope alone has its item in the supplier's partition of the table, as before.
    const own = items.filter((item) => !item.pk.startsWith('SEARCH#CLIENT#'));
    expect(own.map((item) => item.token)).toEqual(expect.arrayContaining(['20100070970', 'andina', 'alimentos']));
    expect(own.every((item) => item.pk === item.gsi2pk)).toBe(true);
  });

  it('orders a token newest received first', () => {
    const older = invoiceSearchItems({ ...invoice, receivedAt: '2026-11-01T10:00:00.000Z' })[0]!;
    const newer = invoiceSearchItems(invoice)[0]!;
    expect(newer.pk).toBe(older.pk);
    expect(newer.sk < older.sk).toBe(true);
  });
});
