import type { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  INVOICE_STATUSES,
  INVOICE_TYPES,
  TABLE,
  keys,
  type Invoice,
  type InvoiceStatus,
  type InvoiceType,
} from '@portal/shared';
import {
  classifySearch,
  mergeNewestFirst,
  planInvoiceQuery,
  runInvoiceQuery,
  type InvoiceFilter,
  type InvoiceScope,
  type PartitionFetch,
  type QueryBudget,
} from './invoice-queries.js';

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
    (p) => `${p.index}:${p.partition}${p.sortKeyPrefix === keys.invoiceOrderPrefix ? '' : `^${p.sortKeyPrefix}`}`,
  );
const filteredBy = (scope: InvoiceScope, filter: InvoiceFilter) =>
  Object.fromEntries(planInvoiceQuery(scope, filter).filters.map((f) => [f.path.join('.'), f.anyOf]));

describe('the header search', () => {
  it('reads digits as a RUC prefix, a series shape as a number prefix and anything else as a name', () => {
    expect(classifySearch('2045')).toEqual({ kind: 'RUC', prefix: '2045' });
    expect(classifySearch('f001')).toEqual({ kind: 'NUMBER', prefix: 'F001' });
    expect(classifySearch('F001-12')).toEqual({ kind: 'NUMBER', prefix: 'F001-12' });
    expect(classifySearch('e001-5')).toEqual({ kind: 'NUMBER', prefix: 'E001-5' });
    expect(classifySearch('FC0')).toEqual({ kind: 'NUMBER', prefix: 'FC0' });
    expect(classifySearch('Ferretería El')).toEqual({ kind: 'NAME', prefix: 'ferreteria el' });
    expect(classifySearch('FERR')).toEqual({ kind: 'NAME', prefix: 'ferr' });
    expect(classifySearch('Quispe')).toEqual({ kind: 'NAME', prefix: 'quispe' });
  });
});

describe('planning a listing', () => {
  it('reads a whole company, or a supplier across companies, when nothing narrows it', () => {
    expect(drivenBy(company, {})).toEqual([`byClient:CLIENT#${CLIENT}`]);
    expect(drivenBy(supplier, {})).toEqual([`bySupplier:SUPPLIER#${SUPPLIER}`]);
    expect(drivenBy({ ...supplier, client: CLIENT }, {})).toEqual([
      `byClientSupplier:CLIENT#${CLIENT}#SUPPLIER#${SUPPLIER}`,
    ]);
    expect(planInvoiceQuery(company, {}).filters).toEqual([]);
  });

  it('drives a company listing by search, then issuer, responsible, office, status list, type list', () => {
    const all: InvoiceFilter = {
      search: 'F001-1',
      issuer: SUPPLIER,
      responsible: 'E1001',
      office: 'Sede Central',
      statuses: ['PENDING'],
      types: ['FACTURA'],
    };
    expect(drivenBy(company, all)).toEqual([`byClientNumber:CLIENT#${CLIENT}^F001-1`]);
    expect(filteredBy(company, all)).toEqual({
      supplierId: [SUPPLIER],
      'responsible.id': ['E1001'],
      officeId: ['Sede Central'],
      status: ['PENDING'],
      type: ['FACTURA'],
    });
    const { search: _s, ...noSearch } = all;
    expect(drivenBy(company, noSearch)).toEqual([`byClientSupplier:CLIENT#${CLIENT}#SUPPLIER#${SUPPLIER}`]);
    expect(filteredBy(company, noSearch)).not.toHaveProperty('supplierId');
    const { issuer: _i, ...noIssuer } = noSearch;
    expect(drivenBy(company, noIssuer)).toEqual([`byClientResponsible:CLIENT#${CLIENT}#RESPONSIBLE#E1001`]);
    const { responsible: _r, ...noResponsible } = noIssuer;
    expect(drivenBy(company, noResponsible)).toEqual([`byClientOffice:CLIENT#${CLIENT}#OFFICE#Sede Central`]);
    expect(filteredBy(company, noResponsible)).toEqual({ status: ['PENDING'], type: ['FACTURA'] });
    expect(drivenBy(company, { statuses: ['PENDING', 'PAID'], types: ['FACTURA', 'BOLETA'] })).toEqual([
      `byClientStatus:CLIENT#${CLIENT}#STATUS#PAID`,
      `byClientStatus:CLIENT#${CLIENT}#STATUS#PENDING`,
    ]);
    expect(filteredBy(company, { statuses: ['PENDING'], types: ['FACTURA', 'BOLETA'] })).toEqual({
      type: ['BOLETA', 'FACTURA'],
    });
    expect(drivenBy(company, { types: ['FACTURA', 'BOLETA', 'FACTURA'] })).toEqual([
      `byClientType:CLIENT#${CLIENT}#TYPE#BOLETA`,
      `byClientType:CLIENT#${CLIENT}#TYPE#FACTURA`,
    ]);
  });

  it('searches a company by RUC prefix, or by name prefix without accents or case', () => {
    expect(drivenBy(company, { search: '2060' })).toEqual([`byClientRuc:CLIENT#${CLIENT}^2060`]);
    expect(drivenBy(company, { search: 'Ferretería  EL' })).toEqual([`byClientName:CLIENT#${CLIENT}^ferreteria el`]);
    expect(drivenBy(company, { search: '¿?' })).toEqual([]);
  });

  it('keeps a supplier on partitions that hold only its own invoices, whatever it asks', () => {
    for (const filter of [
      { search: 'F001' },
      { search: '2060' },
      { search: 'Ferretería' },
      { responsible: 'E1001' },
      { office: 'Sede Central' },
      { statuses: ['PENDING', 'PAID'] as InvoiceStatus[] },
      { types: ['FACTURA'] as InvoiceType[] },
      { issuer: OTHER_SUPPLIER },
    ]) {
      for (const scope of [supplier, { ...supplier, client: CLIENT }]) {
        for (const partition of planInvoiceQuery(scope, filter).partitions) {
          expect(partition.index).toMatch(/^(bySupplier|bySupplierStatus|bySupplierNumber|byClientSupplier)$/);
          expect(partition.partition).toMatch(new RegExp(`SUPPLIER#${SUPPLIER}(#|$)`));
        }
      }
    }
  });

  it('gives a supplier number search, then its client pair, then its status partitions', () => {
    expect(drivenBy(supplier, { search: 'f001-1', statuses: ['PAID'] })).toEqual([
      `bySupplierNumber:SUPPLIER#${SUPPLIER}^F001-1`,
    ]);
    expect(filteredBy({ ...supplier, client: CLIENT }, { search: 'f001' })).toEqual({ client: [CLIENT] });
    expect(drivenBy({ ...supplier, client: CLIENT }, { statuses: ['PAID'] })).toEqual([
      `byClientSupplier:CLIENT#${CLIENT}#SUPPLIER#${SUPPLIER}`,
    ]);
    expect(drivenBy(supplier, { statuses: ['PAID', 'PENDING'], office: 'Sede Central' })).toEqual([
      `bySupplierStatus:SUPPLIER#${SUPPLIER}#STATUS#PAID`,
      `bySupplierStatus:SUPPLIER#${SUPPLIER}#STATUS#PENDING`,
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

/** A table in memory that answers Query as DynamoDB does, reading only what it is asked to. */
function fakeTable(items: Record<string, unknown>[]) {
  const stats = { queries: 0, evaluated: 0 };
  const send = async (command: QueryCommand) => {
    const input = command.input;
    const def = Object.values(TABLE.indexes).find((index) => index.name === input.IndexName)!;
    const values = input.ExpressionAttributeValues!;
    const names = input.ExpressionAttributeNames!;
    const sortKey = (item: Record<string, unknown>) => item[def.sortKey] as string;
    const start = input.ExclusiveStartKey;
    expect(start === undefined || start[def.partitionKey] === values[':pk']).toBe(true);
    const partition = items
      .filter((item) => item[def.partitionKey] === values[':pk'] && typeof item[def.sortKey] === 'string')
      .filter((item) => sortKey(item).startsWith(values[':prefix'] as string))
      .sort((a, b) => (sortKey(a) < sortKey(b) ? 1 : -1))
      .filter((item) => start === undefined || sortKey(item) < (start[def.sortKey] as string));
    const evaluated = partition.slice(0, input.Limit);
    stats.queries += 1;
    stats.evaluated += evaluated.length;
    const conditions = (input.FilterExpression ?? '').split(' AND ').filter(Boolean);
    const matches = (item: Record<string, unknown>) =>
      conditions.every((condition) => {
        const [path, rest] = condition.split(/ = | IN /) as [string, string];
        const value = path
          .split('.')
          .reduce<unknown>((v, n) => (v as Record<string, unknown> | null)?.[names[n]!], item);
        return rest.match(/:f\d+_\d+/g)!.some((placeholder) => values[placeholder] === value);
      });
    const last = evaluated.at(-1);
    // Like DynamoDB, a read that stops at its Limit hands back a key even when nothing follows.
    const lastKey =
      last && evaluated.length === input.Limit
        ? { pk: last.pk, sk: last.sk, [def.partitionKey]: last[def.partitionKey], [def.sortKey]: last[def.sortKey] }
        : undefined;
    return { Items: evaluated.filter(matches), LastEvaluatedKey: lastKey };
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
    return {
      id: `${prefixId}-${100 + i}`,
      prefixId,
      numericId: String(100 + i),
      type,
      status,
      statusMessage: null,
      certStatus: 'VALID',
      approved: false,
      supplierId,
      supplierName: names[supplierIndex]!,
      client: [CLIENT, OTHER_CLIENT][next(2)]!,
      clientName: 'Cliente',
      responsible: reviewed
        ? { id: ['E1001', 'E1002'][next(2)]!, fullName: 'Carmen Rosa', office: 'Sede Central' }
        : null,
      officeId: reviewed ? ['Sede Central', 'Oficina Sur'][next(2)]! : null,
      locationId: null,
      operationType: null,
      currency: 'PEN',
      amount: 118,
      taxAmount: 18,
      serviceSheets: [],
      materialDocs: [],
      purchaseOrders: [],
      attachments: [],
      issuedAt: `2026-${String(1 + next(9)).padStart(2, '0')}-${String(10 + next(18))}`,
      scheduledAt: null,
      paidAt: null,
      xmlUrl: null,
      pdfUrl: null,
      disapprovedWithoutRejection: false,
      notes: null,
      statusHistory: [],
    };
  });
}

const stored = (invoice: Invoice) => ({
  ...keys.invoice(invoice.supplierId, invoice.type, invoice.id),
  ...keys.invoiceIndexes(invoice),
  ...invoice,
});

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
    const { db, stats } = fakeTable(invoices.map(stored));
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

  it('finds by number, RUC and name prefix in the order of the searched key', async () => {
    const byNumber = await walk(company, { search: 'f001-1' }, 4, QUERY_BUDGET_TINY);
    const expected = invoices.filter((i) => i.client === CLIENT && i.id.startsWith('F001-1'));
    expect(byNumber.map(idOf).sort()).toEqual(expected.map(idOf).sort());
    expect(byNumber.map((i) => i.id)).toEqual([...byNumber.map((i) => i.id)].sort().reverse());
    const byName = await walk(company, { search: 'ñandu', statuses: ['PAID'] }, 4, QUERY_BUDGET_TINY);
    expect(byName.map(idOf).sort()).toEqual(
      invoices
        .filter((i) => i.client === CLIENT && i.supplierName.startsWith('Ñandú') && i.status === 'PAID')
        .map(idOf)
        .sort(),
    );
    const byRuc = await walk(company, { search: OTHER_SUPPLIER.slice(0, 5) }, 50, QUERY_BUDGET_TINY);
    expect(byRuc.map(idOf).sort()).toEqual(
      invoices
        .filter((i) => i.client === CLIENT && i.supplierId === OTHER_SUPPLIER)
        .map(idOf)
        .sort(),
    );
  });

  it("never shows a supplier another supplier's invoice, even searching for it", async () => {
    for (const search of ['F001', 'B001-1', OTHER_SUPPLIER, 'Ferretería']) {
      const seen = await walk(supplier, { search }, 10, QUERY_BUDGET_TINY);
      expect(seen.every((invoice) => invoice.supplierId === SUPPLIER)).toBe(true);
    }
  });
});

describe('cursors', () => {
  const invoices = seedInvoices(40).map(stored);

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
