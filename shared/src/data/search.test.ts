import { describe, expect, it } from 'vitest';
import { keys } from './table.js';
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
  const owner = scope === 'CLIENT' ? source.client : source.supplierId;
  return invoiceSearchItems(source).filter(
    (item) =>
      item.pk === keys.searchPartition(scope, owner, driving) &&
      item.sk.startsWith(driving) &&
      isSearchHit(item.tokens, item.token, terms),
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
    expect(finds('2045617', 'CLIENT')).toBe(1);
    expect(finds('industriales', 'CLIENT')).toBe(1);
    expect(finds('LIMA', 'CLIENT')).toBe(1);
    expect(finds('indus lim', 'CLIENT')).toBe(1);
    expect(finds('indus callao', 'CLIENT')).toBe(0);
    // The company's own name is not how staff tell its invoices apart.
    expect(finds('andina', 'CLIENT')).toBe(0);
  });

  it("finds a supplier its invoice by the client's RUC or name, and by its own", () => {
    expect(finds('2010007', 'SUPPLIER')).toBe(1);
    expect(finds('Corporacion', 'SUPPLIER')).toBe(1);
    expect(finds('corporación andina', 'SUPPLIER')).toBe(1);
    expect(finds('alimentos 4580', 'SUPPLIER')).toBe(1);
    expect(finds('20456178325', 'SUPPLIER')).toBe(1);
    expect(finds('servicios', 'SUPPLIER')).toBe(1);
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

  it('orders a token newest received first', () => {
    const older = invoiceSearchItems({ ...invoice, receivedAt: '2026-11-01T10:00:00.000Z' })[0]!;
    const newer = invoiceSearchItems(invoice)[0]!;
    expect(newer.pk).toBe(older.pk);
    expect(newer.sk < older.sk).toBe(true);
  });
});
