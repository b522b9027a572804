import type { BatchGetCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  INVOICE_STATUSES,
  INVOICE_TYPES,
  TABLE,
  invoiceSearchItems,
  keys,
  normalizeForSearch,
  type Invoice,
  type ItemKey,
  type InvoiceStatus,
  type InvoiceType,
} from '@portal/shared';
import {
  QUERY_BUDGET,
  mergeNewestFirst,
  planInvoiceQuery,
  runInvoiceQuery,
  type InvoiceFilter,
  type InvoiceScope,
  type PartitionFetch,
  type QueryBudget,
} from './invoice-queries.js';
import { invoiceFixture } from '../use-cases/invoice.fake.js';
import { runInvoiceSearch } from './invoice-search.js';

const CLIENT = '20100070970';
const OTHER_CLIENT = '20603415800';
const SUPPLIER = '20456178325';
const OTHER_SUPPLIER = '20608172352';
/** Two items per read and one read per partition: the tightest budget, so the merge must still be exact. */
const QUERY_BUDGET_TINY: QueryBudget = { itemsPerQuery: 2, queriesPerPartition: 1 };
const company: InvoiceScope = { kind: 'COMPANY', client: CLIENT };
const supplier: InvoiceScope = { kind: 'SUPPLIER', supplierId: SUPPLIER };

const drivenBy = (scope: InvoiceScope, filter: InvoiceFilter) =>
  planInvoiceQuery(scope, filter).partitions.map(
    (p) => `${p.partition}${p.sortKeyPrefix === keys.invoiceOrderPrefix ? '' : `^${p.sortKeyPrefix}`}`,
  );
const filteredBy = (scope: InvoiceScope, filter: InvoiceFilter) =>
  Object.fromEntries(
    planInvoiceQuery(scope, filter).filters.map((f) => [f.path.join('.'), 'anyOf' in f ? f.anyOf : 'present']),
  );

describe('planning a listing', () => {
  it('reads a whole company, or a supplier across companies, when nothing narrows it', () => {
    expect(drivenBy(company, {})).toEqual([`CLIENT#${CLIENT}`]);
    expect(drivenBy(supplier, {})).toEqual([`SUPPLIER#${SUPPLIER}`]);
    expect(drivenBy({ ...supplier, client: CLIENT }, {})).toEqual([`CLIENT#${CLIENT}#SUPPLIER#${SUPPLIER}`]);
    expect(planInvoiceQuery(company, {}).filters).toEqual([]);
  });

  it('keeps "Observadas" as a filter on whatever partition drives, for a company and for a supplier', () => {
    expect(drivenBy(company, { observed: true })).toEqual([`CLIENT#${CLIENT}`]);
    expect(filteredBy(company, { observed: true })).toEqual({ 'observation.since': 'present' });
    expect(filteredBy(supplier, { observed: true, statuses: ['PENDING'] })).toEqual({
      'observation.since': 'present',
    });
    expect(planInvoiceQuery(company, { observed: false }).filters).toEqual([]);
  });

  it('drives a company listing by issuer, then responsible, office, status list, type list', () => {
    const all: InvoiceFilter = {
      issuer: SUPPLIER,
      responsible: 'E1001',
      office: 'Sede Central',
      statuses: ['PENDING'],
      types: ['FACTURA'],
    };
    expect(drivenBy(company, all)).toEqual([`CLIENT#${CLIENT}#SUPPLIER#${SUPPLIER}`]);
    expect(filteredBy(company, all)).not.toHaveProperty('supplierId');
    const { issuer: _i, ...noIssuer } = all;
    expect(drivenBy(company, noIssuer)).toEqual([`CLIENT#${CLIENT}#RESPONSIBLE#E1001`]);
    const { responsible: _r, ...noResponsible } = noIssuer;
    expect(drivenBy(company, noResponsible)).toEqual([`CLIENT#${CLIENT}#OFFICE#Sede Central`]);
    expect(filteredBy(company, noResponsible)).toEqual({ status: ['PENDING'], type: ['FACTURA'] });
    expect(drivenBy(company, { statuses: ['PENDING', 'PAID'], types: ['FACTURA', 'BOLETA'] })).toEqual([
      `CLIENT#${CLIENT}#STATUS#PAID`,
      `CLIENT#${CLIENT}#STATUS#PENDING`,
    ]);
    expect(filteredBy(company, { statuses: ['PENDING'], types: ['FACTURA', 'BOLETA'] })).toEqual({
      type: ['BOLETA', 'FACTURA'],
    });
    expect(drivenBy(company, { types: ['FACTURA', 'BOLETA', 'FACTURA'] })).toEqual([
      `CLIENT#${CLIENT}#TYPE#BOLETA`,
      `CLIENT#${CLIENT}#TYPE#FACTURA`,
    ]);
  });

  it('keeps a supplier on partitions that hold only its own invoices, whatever it asks', () => {
    for (const filter of [
      { responsible: 'E1001' },
      { office: 'Sede Central' },
      { statuses: ['PENDING', 'PAID'] as InvoiceStatus[] },
      { types: ['FACTURA'] as InvoiceType[] },
      { issuer: OTHER_SUPPLIER },
    ]) {
      for (const scope of [supplier, { ...supplier, client: CLIENT }]) {
        for (const partition of planInvoiceQuery(scope, filter).partitions) {
          expect(partition.partition).toMatch(new RegExp(`SUPPLIER#${SUPPLIER}(#|$)`));
        }
      }
    }
  });

  it('gives a supplier its client pair, then its status partitions', () => {
    expect(drivenBy({ ...supplier, client: CLIENT }, { statuses: ['PAID'] })).toEqual([
      `CLIENT#${CLIENT}#SUPPLIER#${SUPPLIER}`,
    ]);
    expect(drivenBy(supplier, { statuses: ['PAID', 'PENDING'], office: 'Sede Central' })).toEqual([
      `SUPPLIER#${SUPPLIER}#STATUS#PAID`,
      `SUPPLIER#${SUPPLIER}#STATUS#PENDING`,
    ]);
    expect(filteredBy(supplier, { statuses: ['PAID', 'PENDING'], office: 'Sede Central' })).toEqual({
      officeId: ['Sede Central'],
    });
  });

  it('fingerprints the filter and the tenant, not the order a list was written in', () => {
    const fingerprint = (scope: InvoiceScope, filter: InvoiceFilter) => planInvoiceQuery(scope, filter).fingerprint;
    expect(fingerprint(company, { statuses: ['PAID', 'PENDING'] })).toBe(
      fingerprint(company, { statuses: ['PENDING', 'PAID'] }),
    );
    expect(fingerprint(company, { statuses: ['PAID'] })).not.toBe(fingerprint(company, { statuses: ['PENDING'] }));
    expect(fingerprint(company, {})).not.toBe(fingerprint({ kind: 'COMPANY', client: OTHER_CLIENT }, {}));
    expect(fingerprint(supplier, {})).not.toBe(fingerprint({ kind: 'SUPPLIER', supplierId: OTHER_SUPPLIER }, {}));
  });
});

describe('merging partitions newest first', () => {
  const at = (order: string) => ({ position: [`pk${order}`, 'INVOICE', order] as const, value: order });
  const fetch = (orders: string[], lastEvaluated: string | null): PartitionFetch<string> => ({
    items: orders.map(at),
    lastEvaluated: lastEvaluated === null ? null : at(lastEvaluated).position,
  });

  it('interleaves the partitions newest first and records where each one stopped', () => {
    const merged = mergeNewestFirst(
      [fetch(['9', '6', '3'], '3'), fetch(['8', '7', '1'], '1'), fetch([], null)],
      [null, null, null],
      3,
    );
    expect(merged.items).toEqual(['9', '8', '7']);
    expect(merged.positions).toEqual([at('9').position, at('7').position, 'done']);
  });

  it('moves a partition whose reads were all taken to where the reads stopped, or marks it done', () => {
    const merged = mergeNewestFirst([fetch(['9'], '5'), fetch(['8', '2'], null)], [null, null], 3);
    expect(merged.items).toEqual(['9', '8']);
    expect(merged.positions).toEqual([at('5').position, at('8').position]);
    const last = mergeNewestFirst([fetch(['4'], null), fetch(['2'], null)], [at('5').position, at('8').position], 3);
    expect(last).toEqual({ items: ['4', '2'], positions: ['done', 'done'] });
  });

  it('holds back items older than a partition that has not been read down to them', () => {
    // The first partition ran out of budget at 7 with no match: 6 and 5 might hide a newer match there.
    const merged = mergeNewestFirst([fetch([], '7'), fetch(['8', '6', '5'], '5')], [null, at('9').position], 3);
    expect(merged.items).toEqual(['8']);
    expect(merged.positions).toEqual([at('7').position, at('8').position]);
  });

  it('keeps the old position of a partition nothing was taken from', () => {
    const merged = mergeNewestFirst([fetch(['3'], null), fetch(['9', '8'], '8')], [at('4').position, null], 2);
    expect(merged).toEqual({ items: ['9', '8'], positions: [at('4').position, at('8').position] });
  });
});

/** A table in memory that answers Query (and BatchGetItem) as DynamoDB does, reading only what it is asked to. */
function fakeTable(items: Record<string, unknown>[]) {
  const stats = { queries: 0, evaluated: 0 };
  const send = async (command: QueryCommand | BatchGetCommand) => {
    if ('RequestItems' in command.input) {
      const [[name, request]] = Object.entries(command.input.RequestItems!) as [[string, { Keys: ItemKey[] }]];
      const found = request.Keys.flatMap((key) => items.filter((item) => item.pk === key.pk && item.sk === key.sk));
      return { Responses: { [name]: found }, UnprocessedKeys: {} };
    }
    const input = command.input as QueryCommand['input'];
    // Lists and a company's search read the table's own items (ADR 0042); a supplier's search reads its partition of
    // the supplier index (ADR 0045), and nothing else reads an index.
    expect([undefined, TABLE.indexes.bySupplier.name]).toContain(input.IndexName);
    return query(input);
  };
  /**
   * A Query of the table (search items, list entries) or of the supplier index (search items that have its keys):
   * by sort key, ascending unless asked otherwise; items of one index key in table key order.
   */
  const query = (input: QueryCommand['input']) => {
    const values = input.ExpressionAttributeValues!;
    const names: Record<string, string> = { pk: 'pk', sk: 'sk', ...input.ExpressionAttributeNames };
    const [pkName, skName] = input.IndexName
      ? [TABLE.indexes.bySupplier.partitionKey, TABLE.indexes.bySupplier.sortKey]
      : ['pk', 'sk'];
    // The keys of a prefix, asked as the key range BETWEEN :from AND :to.
    const condition = /^(#?\w+) = :pk AND (#?\w+) BETWEEN :from AND :to$/.exec(String(input.KeyConditionExpression));
    expect(condition && [names[condition[1]!], names[condition[2]!]]).toEqual([pkName, skName]);
    const start = input.ExclusiveStartKey as Record<string, string> | undefined;
    expect(start === undefined || start[pkName] === values[':pk']).toBe(true);
    const order = (item: Record<string, unknown>) => `${String(item[skName])}\u0000${String(item.pk)}`;
    const [from, to] = [values[':from'] as string, values[':to'] as string];
    const forward = input.ScanIndexForward !== false;
    const after = start === undefined ? undefined : order(start);
    const evaluated = items
      .filter((item) => item[pkName] === values[':pk'] && String(item[skName]) >= from && String(item[skName]) <= to)
      .sort((a, b) => (order(a) < order(b) ? -1 : 1) * (forward ? 1 : -1))
      .filter((item) => after === undefined || (forward ? order(item) > after : order(item) < after))
      .slice(0, input.Limit);
    stats.queries += 1;
    stats.evaluated += evaluated.length;
    const last = evaluated.at(-1);
    const lastKey = (item: Record<string, unknown>) =>
      input.IndexName
        ? { pk: item.pk, sk: item.sk, [pkName]: item[pkName], [skName]: item[skName] }
        : { pk: item.pk, sk: item.sk };
    return {
      Items: evaluated,
      LastEvaluatedKey: last && evaluated.length === input.Limit ? lastKey(last) : undefined,
    };
  };
  return { db: { send } as unknown as DynamoDBDocumentClient, stats };
}

function seedInvoices(count: number): Invoice[] {
  let state = 7;
  // The high bits of a linear congruential generator: deterministic, and varied enough for every filter.
  const next = (n: number) => ((state = (state * 1664525 + 1013904223) >>> 0), Math.floor((state / 2 ** 32) * n));
  const names = ['Ferretería El Constructor', 'Servicios Industriales Lima', 'Ñandú Importaciones'];
  return Array.from({ length: count }, (_, i) => {
    const supplierIndex = next(3);
    const status = INVOICE_STATUSES[next(INVOICE_STATUSES.length)]!;
    const reviewed = next(3) > 0;
    const type = INVOICE_TYPES[next(3)]!;
    const prefixId = type === 'FACTURA' ? 'F001' : 'B001';
    const supplierId = [SUPPLIER, OTHER_SUPPLIER, '10456789013'][supplierIndex]!;
    return invoiceFixture({
      id: `${prefixId}-${100 + i}`,
      prefixId,
      numericId: String(100 + i),
      type,
      status,
      certStatus: 'VALID',
      supplierId,
      supplierName: names[supplierIndex]!,
      client: [CLIENT, OTHER_CLIENT][next(2)]!,
      clientName: 'Cliente',
      responsible: reviewed
        ? { id: ['E1001', 'E1002'][next(2)]!, fullName: 'Carmen Rosa', office: 'Sede Central' }
        : null,
      officeId: reviewed ? ['Sede Central', 'Oficina Sur'][next(2)]! : null,
      issuedAt: `2026-${String(1 + next(9)).padStart(2, '0')}-${String(10 + next(18))}`,
      receivedAt: `2026-10-${String(10 + next(18))}T${String(10 + next(12))}:${String(10 + next(50))}:00.000Z`,
    });
  });
}

/** An invoice as the intake stores it: the item, and its list entries. */
const stored = (invoice: Invoice): Record<string, unknown>[] => [
  { ...keys.invoice(invoice.supplierId, invoice.type, invoice.id), ...invoice },
  ...keys.invoiceListEntries(invoice),
];

describe('running a plan page by page', () => {
  const invoices = seedInvoices(160);
  const matching = (scope: InvoiceScope, filter: InvoiceFilter) =>
    invoices.filter(
      (invoice) =>
        (scope.kind === 'COMPANY' ? invoice.client === scope.client : invoice.supplierId === scope.supplierId) &&
        (scope.kind === 'COMPANY' || !scope.client || invoice.client === scope.client) &&
        (!filter.issuer || invoice.supplierId === filter.issuer) &&
        (!filter.responsible || invoice.responsible?.id === filter.responsible) &&
        (!filter.office || invoice.officeId === filter.office) &&
        (!filter.statuses || filter.statuses.includes(invoice.status)) &&
        (!filter.types || filter.types.includes(invoice.type)),
    );
  const idOf = (invoice: Pick<Invoice, 'supplierId' | 'type' | 'id'>) =>
    `${invoice.supplierId}/${invoice.type}/${invoice.id}`;

  async function walk(scope: InvoiceScope, filter: InvoiceFilter, limit: number, budget: QueryBudget) {
    const { db, stats } = fakeTable(invoices.flatMap(stored));
    const plan = planInvoiceQuery(scope, filter);
    const seen: Invoice[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const before = stats.evaluated;
      const page = await runInvoiceQuery(db, 'table', plan, { limit, cursor }, budget);
      expect(page.items.length).toBeLessThanOrEqual(limit);
      expect(stats.evaluated - before).toBeLessThanOrEqual(
        plan.partitions.length * budget.queriesPerPartition * budget.itemsPerQuery,
      );
      seen.push(...(page.items as Invoice[]));
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor && pages < 500);
    expect(cursor).toBeUndefined();
    return seen;
  }

  const cases: [string, InvoiceScope, InvoiceFilter][] = [
    ['a whole company', company, {}],
    ['a status list', company, { statuses: ['PENDING', 'PAID', 'REJECTED'] }],
    ['a status list and a type', company, { statuses: ['PENDING', 'ACCEPTED'], types: ['FACTURA'] }],
    ['a type list', company, { types: ['FACTURA', 'BOLETA'] }],
    ['an office and a status list', company, { office: 'Sede Central', statuses: ['COMPLETED', 'PAID'] }],
    ['a responsible', company, { responsible: 'E1002' }],
    ['an issuer and a status list', company, { issuer: OTHER_SUPPLIER, statuses: ['PAID', 'SCHEDULED'] }],
    ['a supplier', supplier, {}],
    ['a supplier status list and office', supplier, { statuses: ['PENDING', 'PAID'], office: 'Oficina Sur' }],
    ['a supplier at one client', { ...supplier, client: OTHER_CLIENT }, { types: ['BOLETA'] }],
  ];

  for (const [name, scope, filter] of cases) {
    it(`returns exactly the matches of ${name}, newest first, never twice`, async () => {
      for (const [limit, budget] of [
        [3, QUERY_BUDGET_TINY],
        [7, { itemsPerQuery: 5, queriesPerPartition: 2 }],
        [100, { itemsPerQuery: 100, queriesPerPartition: 3 }],
      ] as const) {
        const seen = await walk(scope, filter, limit, budget);
        const expected = matching(scope, filter);
        expect(expected.length).toBeGreaterThan(0);
        expect(seen.map(idOf)).toEqual(
          [...expected].sort((a, b) => (keys.invoiceOrder(a) < keys.invoiceOrder(b) ? 1 : -1)).map(idOf),
        );
      }
    });
  }
});

describe('searching', () => {
  const invoices = seedInvoices(160);
  const idOf = (invoice: Pick<Invoice, 'supplierId' | 'type' | 'id'>) =>
    `${invoice.supplierId}/${invoice.type}/${invoice.id}`;
  /** Staff find by any part of the number, a RUC prefix or a word of the supplier's name (the oracle, by hand). */
  const staffFind = (invoice: Invoice, term: string) =>
    invoice.id.toLowerCase().includes(term) ||
    invoice.supplierId.startsWith(term) ||
    normalizeForSearch(invoice.supplierName)
      .split(' ')
      .some((word) => word.startsWith(term));

  async function walk(
    scope: InvoiceScope,
    filter: InvoiceFilter,
    limit: number,
    budget: QueryBudget,
    extra: Record<string, unknown>[] = [],
  ) {
    const items = [...invoices.flatMap(stored), ...invoices.flatMap((i) => invoiceSearchItems(i)), ...extra];
    const { db, stats } = fakeTable(items);
    const seen: Invoice[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const before = stats.evaluated;
      const page = await runInvoiceSearch(db, 'table', scope, filter, { limit, cursor }, budget);
      expect(page.items.length).toBeLessThanOrEqual(limit);
      expect(stats.evaluated - before).toBeLessThanOrEqual(budget.queriesPerPartition * budget.itemsPerQuery);
      seen.push(...(page.items as Invoice[]));
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor && pages < 1000);
    expect(cursor).toBeUndefined();
    return seen;
  }

  /** The search for `term` finds `expected` (some), each once, with the tightest budget and a roomy one. */
  async function expectFoundOnce(scope: InvoiceScope, term: string, expected: string[]) {
    expect(expected.length).toBeGreaterThan(0);
    for (const [limit, budget] of [
      [3, QUERY_BUDGET_TINY],
      [50, { itemsPerQuery: 100, queriesPerPartition: 3 }],
    ] as const) {
      const seen = (await walk(scope, { search: term }, limit, budget)).map(idOf);
      expect(new Set(seen).size).toBe(seen.length);
      expect([...seen].sort()).toEqual([...expected].sort());
    }
  }

  it('finds every invoice of the company with any part of the number, a RUC prefix or a name word, once', async () => {
    for (const term of ['10', '1', 'f001-1', '25', 'ferret', 'nandu', OTHER_SUPPLIER.slice(0, 5)]) {
      const expected = invoices.filter((i) => i.client === CLIENT && staffFind(i, term)).map(idOf);
      await expectFoundOnce(company, term, expected);
    }
  });

  it("finds every invoice a supplier sent with any part of the number or the company's name, once (ADR 0045)", async () => {
    // Through the supplier index: the items of the tokens both scopes share lie in the companies' partitions.
    for (const term of ['10', '1', 'f001-1', '25', 'cliente', CLIENT.slice(0, 4)]) {
      const expected = invoices
        .filter(
          (i) =>
            i.supplierId === SUPPLIER &&
            (i.id.toLowerCase().includes(term) || term === 'cliente' || i.client.startsWith(term)),
        )
        .map(idOf);
      await expectFoundOnce(supplier, term, expected);
    }
  });

  it('lists exact matches first, then newest received first', async () => {
    const seen = await walk(company, { search: '1' }, 100, QUERY_BUDGET);
    // The number ends with the term: one of its tokens is the term itself.
    const exact = seen.map((invoice) => invoice.id.endsWith('1'));
    expect(exact.includes(true) && exact.includes(false)).toBe(true);
    expect(exact).toEqual([...exact].sort((a, b) => Number(b) - Number(a)));
    const exactOnes = seen.filter((invoice) => invoice.id.endsWith('1'));
    expect(exactOnes.map((i) => i.receivedAt)).toEqual(
      exactOnes
        .map((i) => i.receivedAt)
        .sort()
        .reverse(),
    );
  });

  it('applies the other filters to what it finds', async () => {
    const filter: InvoiceFilter = { search: 'ferre', statuses: ['PAID', 'PENDING'], office: 'Sede Central' };
    const seen = await walk(company, filter, 2, QUERY_BUDGET_TINY);
    const expected = invoices.filter(
      (i) =>
        i.client === CLIENT &&
        staffFind(i, 'ferre') &&
        ['PAID', 'PENDING'].includes(i.status) &&
        i.officeId === 'Sede Central',
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(seen.map(idOf).sort()).toEqual(expected.map(idOf).sort());
  });

  it('needs every word of the query, in any order', async () => {
    const seen = await walk(company, { search: 'importaciones ÑANDÚ' }, 10, QUERY_BUDGET);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((invoice) => invoice.supplierName === 'Ñandú Importaciones')).toBe(true);
    expect(await walk(company, { search: 'ñandu lima' }, 10, QUERY_BUDGET)).toEqual([]);
  });

  it('skips the search items of an earlier submission of the same invoice', async () => {
    const replaced = invoices.find((i) => i.client === CLIENT)!;
    const stale = invoiceSearchItems({ ...replaced, receivedAt: '2025-01-01T00:00:00.000Z' });
    const seen = await walk(company, { search: replaced.id }, 10, QUERY_BUDGET_TINY, stale);
    expect(seen.map(idOf)).toEqual([idOf(replaced)]);
  });

  it("never shows a supplier another supplier's invoice, even searching for it", async () => {
    for (const search of ['F001', 'B001-1', OTHER_SUPPLIER, 'Ferretería', 'cliente']) {
      const seen = await walk(supplier, { search }, 10, QUERY_BUDGET_TINY);
      expect(seen.every((invoice) => invoice.supplierId === SUPPLIER)).toBe(true);
    }
    // Its own RUC finds everything it sent; the client's name finds what it sent to the client.
    const own = invoices.filter((i) => i.supplierId === SUPPLIER).map(idOf);
    expect((await walk(supplier, { search: SUPPLIER }, 50, QUERY_BUDGET)).map(idOf).sort()).toEqual(own.sort());
    expect((await walk(supplier, { search: 'Cliente' }, 50, QUERY_BUDGET)).map(idOf).sort()).toEqual(own.sort());
  });

  it('refuses a cursor of another search or tenant', async () => {
    const items = [...invoices.flatMap(stored), ...invoices.flatMap((i) => invoiceSearchItems(i))];
    const { db } = fakeTable(items);
    const first = await runInvoiceSearch(db, 't', company, { search: '1' }, { limit: 2 }, QUERY_BUDGET);
    expect(first.nextCursor).toEqual(expect.any(String));
    for (const [scope, filter] of [
      [company, { search: '10' }],
      [company, { search: '1', statuses: ['PAID'] }],
      [{ kind: 'COMPANY', client: OTHER_CLIENT }, { search: '1' }],
      [supplier, { search: '1' }],
    ] as [InvoiceScope, InvoiceFilter][]) {
      await expect(
        runInvoiceSearch(db, 't', scope, filter, { limit: 2, cursor: first.nextCursor! }, QUERY_BUDGET),
      ).rejects.toMatchObject({ statusCode: 400, code: 'ERROR_INVALID_CURSOR' });
    }
  });
});

describe('cursors', () => {
  const invoices = seedInvoices(40).flatMap(stored);

  it('resume the listing they were made for and are refused for another filter or tenant', async () => {
    const { db } = fakeTable(invoices);
    const statusPlan = planInvoiceQuery(company, { statuses: ['PENDING', 'PAID'] });
    const first = await runInvoiceQuery(db, 't', statusPlan, { limit: 2 });
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await runInvoiceQuery(db, 't', statusPlan, { limit: 2, cursor: first.nextCursor! });
    expect(second.items.length).toBeGreaterThan(0);

    for (const [scope, filter] of [
      [company, { statuses: ['PENDING', 'REJECTED'] }],
      [company, { statuses: ['PENDING', 'PAID'], types: ['FACTURA'] }],
      [company, {}],
      [{ kind: 'COMPANY', client: OTHER_CLIENT }, { statuses: ['PENDING', 'PAID'] }],
      [supplier, { statuses: ['PENDING', 'PAID'] }],
    ] as [InvoiceScope, InvoiceFilter][]) {
      await expect(
        runInvoiceQuery(db, 't', planInvoiceQuery(scope, filter), { limit: 2, cursor: first.nextCursor! }),
      ).rejects.toMatchObject({ statusCode: 400, code: 'ERROR_INVALID_CURSOR' });
    }
  });

  it('are refused when garbage or tampered with', async () => {
    const { db } = fakeTable(invoices);
    const plan = planInvoiceQuery(company, { statuses: ['PENDING', 'PAID'] });
    const cursor = (await runInvoiceQuery(db, 't', plan, { limit: 2 })).nextCursor!;
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const reencode = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
    for (const bad of [
      'not-a-cursor',
      reencode({ ...decoded, p: decoded.p.slice(1) }),
      reencode({ ...decoded, p: [['a', 'b', 'c'], null] }),
      reencode({ ...decoded, p: [{ pk: 'x' }, null] }),
      reencode({ ...decoded, p: ['done', 'done'] }),
      reencode({ ...decoded, v: 2 }),
    ]) {
      await expect(runInvoiceQuery(db, 't', plan, { limit: 2, cursor: bad })).rejects.toMatchObject({
        statusCode: 400,
        code: 'ERROR_INVALID_CURSOR',
      });
    }
  });
});

/** An invoice's payment as intake stores it, due on `date`. */
const paymentDue = (date: string): NonNullable<Invoice['payment']> => ({
  method: 'CREDITO',
  installments: [{ number: 1, amount: 118, dueDate: date }],
  declaredPendingAmount: null,
  detraction: null,
  igvRetention: null,
  netToPay: 118,
  warnings: [],
  dueDate: date,
  expectedPaymentDate: date,
  movedToPaymentRun: false,
});

describe('the due-date listing ("vence entre")', () => {
  // Expected payment dates spread over December; one in seven has nothing to pay (a credit note, say).
  const invoices = seedInvoices(160).map((invoice, i) => ({
    ...invoice,
    payment: i % 7 === 6 ? null : paymentDue(`2026-12-${String(1 + ((i * 11) % 28)).padStart(2, '0')}`),
  }));
  const dueOf = (invoice: Invoice) => invoice.payment?.expectedPaymentDate ?? null;

  it('is driven by the due-date index of the company or the supplier, as one key range, whatever else is asked', () => {
    const filter: InvoiceFilter = {
      dueFrom: '2026-12-05',
      dueTo: '2026-12-12',
      statuses: ['ACCEPTED'],
      issuer: SUPPLIER,
    };
    const plan = planInvoiceQuery(company, filter);

    expect(plan.partitions).toEqual([
      {
        partition: `CLIENT#${CLIENT}`,
        sortKeyPrefix: 'DUE#',
        range: { from: 'DUE#2026-12-05', to: 'DUE#2026-12-12~' },
      },
    ]);
    expect(filteredBy(company, filter)).toEqual({ supplierId: [SUPPLIER], status: ['ACCEPTED'] });
    expect(drivenBy({ ...supplier, client: CLIENT }, { dueTo: '2026-12-12' })).toEqual([`SUPPLIER#${SUPPLIER}^DUE#`]);
    expect(filteredBy({ ...supplier, client: CLIENT }, { dueTo: '2026-12-12' })).toEqual({ client: [CLIENT] });
    expect(planInvoiceQuery(company, { dueFrom: '2026-12-01' }).fingerprint).not.toBe(
      planInvoiceQuery(company, { dueFrom: '2026-12-02' }).fingerprint,
    );
  });

  const cases: [string, InvoiceScope, InvoiceFilter][] = [
    ['a week of a company', company, { dueFrom: '2026-12-07', dueTo: '2026-12-13' }],
    [
      'a day and a status list',
      company,
      { dueFrom: '2026-12-12', dueTo: '2026-12-12', statuses: ['ACCEPTED', 'PAID'] },
    ],
    ['everything due until a date, of an issuer', company, { dueTo: '2026-12-20', issuer: OTHER_SUPPLIER }],
    ['a supplier from a date', supplier, { dueFrom: '2026-12-15' }],
    ['a supplier at one client', { ...supplier, client: OTHER_CLIENT }, { dueFrom: '2026-12-01', dueTo: '2026-12-31' }],
  ];

  for (const [name, scope, filter] of cases) {
    it(`returns exactly ${name}, soonest first, page after page, never a rejected one`, async () => {
      const expected = invoices
        .filter(
          (invoice) =>
            (scope.kind === 'COMPANY' ? invoice.client === scope.client : invoice.supplierId === scope.supplierId) &&
            (scope.kind === 'COMPANY' || !scope.client || invoice.client === scope.client) &&
            (!filter.issuer || invoice.supplierId === filter.issuer) &&
            (!filter.statuses || filter.statuses.includes(invoice.status)) &&
            invoice.status !== 'REJECTED' &&
            dueOf(invoice) !== null &&
            (!filter.dueFrom || dueOf(invoice)! >= filter.dueFrom) &&
            (!filter.dueTo || dueOf(invoice)! <= filter.dueTo),
        )
        .sort((a, b) => (keys.invoiceDueOrder(a, dueOf(a)!) < keys.invoiceDueOrder(b, dueOf(b)!) ? -1 : 1));
      expect(expected.length).toBeGreaterThan(0);
      for (const [limit, budget] of [
        [3, QUERY_BUDGET_TINY],
        [100, QUERY_BUDGET],
      ] as const) {
        const { db } = fakeTable(invoices.flatMap(stored));
        const plan = planInvoiceQuery(scope, filter);
        const seen: Invoice[] = [];
        let cursor: string | undefined;
        do {
          const page = await runInvoiceQuery(db, 'table', plan, { limit, cursor }, budget);
          seen.push(...(page.items as Invoice[]));
          cursor = page.nextCursor ?? undefined;
        } while (cursor && seen.length <= invoices.length);
        expect(seen.map((invoice) => invoice.id)).toEqual(expected.map((invoice) => invoice.id));
      }
    });
  }

  it('refuses a cursor moved outside the range it was made for', async () => {
    const { db } = fakeTable(invoices.flatMap(stored));
    const plan = planInvoiceQuery(company, { dueFrom: '2026-12-01', dueTo: '2026-12-05' });
    const page = await runInvoiceQuery(db, 'table', plan, { limit: 1 }, QUERY_BUDGET);
    const decoded = JSON.parse(Buffer.from(page.nextCursor!, 'base64url').toString('utf8')) as unknown;
    const forged = JSON.stringify(decoded).replace(/DUE#2026-12-0\d/g, 'DUE#2026-12-28');

    await expect(
      runInvoiceQuery(db, 'table', plan, { limit: 1, cursor: Buffer.from(forged).toString('base64url') }, QUERY_BUDGET),
    ).rejects.toMatchObject({ code: 'ERROR_INVALID_CURSOR' });
  });
});
