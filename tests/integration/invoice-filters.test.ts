import { describe, expect, it } from 'vitest';
import { keys, normalizeForSearch, routes, type Invoice, type InvoiceSummary } from '@portal/shared';
import { CLIENTS, SUPPLIERS, buildWorld, tenantUsername } from '../support/tenant.js';
import { call, idTokenOf } from '../support/api.js';
import { demoUser, stage } from '../support/stage.js';

/**
 * The invoice filter of spec §3 on GET /invoices, compared with the demo world. Other files approve,
 * reject and add invoices, so these tests read only what none of them touches: the invoices of the
 * demo supplier proveedor2@demo.pe (SUPPLIERS[1]) and the demo manager's second company (CLIENTS[1]).
 */
const world = buildWorld();
const COMPANY = CLIENTS[1]!.taxId;
const SUPPLIER = SUPPLIERS[1]!;
const OTHER_SUPPLIER = SUPPLIERS[0]!;

const atCompany = world.invoices.filter((invoice) => invoice.client === COMPANY);
const ofSupplier = world.invoices.filter((invoice) => invoice.supplierId === SUPPLIER.taxId);

const manager = () => idTokenOf(demoUser('MANAGER').username, demoUser('MANAGER').password);
function supplier() {
  const user = stage().demoUsers.find((candidate) => candidate.taxId === SUPPLIER.taxId)!;
  expect(user.username).toBe(tenantUsername('proveedor2@demo.pe'));
  return idTokenOf(user.username, user.password);
}

type Query = Record<string, string | number>;

/** Walks every page of a listing, as a user paging through the table would. */
async function listAll(token: string, query: Query, limit = 5) {
  const items: InvoiceSummary[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await call(routes.listInvoices, { token, query: { limit, ...query, cursor } });
    expect(page.status).toBe(200);
    expect(page.body.items.length).toBeLessThanOrEqual(limit);
    items.push(...page.body.items);
    cursor = page.body.nextCursor ?? undefined;
    pages += 1;
  } while (cursor && pages < 200);
  expect(cursor).toBeUndefined();
  return items;
}

const idOf = (invoice: Pick<Invoice, 'supplierId' | 'type' | 'id'>) =>
  `${invoice.supplierId}/${invoice.type}/${invoice.id}`;
const idsOf = (invoices: Pick<Invoice, 'supplierId' | 'type' | 'id'>[]) => invoices.map(idOf).sort();
const descending = (values: string[]) => [...values].sort().reverse();

/**
 * Exactly the expected invoices, none twice, newest received first (a search: exact matches first, which the
 * unit tests check), and GET /invoices/count says how many.
 */
async function expectListing(token: string, query: Query, expected: Invoice[], order: 'newest' | 'search' = 'newest') {
  const items = await listAll(token, query);
  expect(new Set(items.map(idOf)).size).toBe(items.length);
  expect(idsOf(items)).toEqual(idsOf(expected));
  if (order === 'newest') {
    const keysInOrder = items.map((invoice) => keys.invoiceOrder(invoice));
    expect(keysInOrder).toEqual(descending(keysInOrder));
  }
  const count = await call(routes.countInvoices, { token, query });
  expect(count.status).toBe(200);
  expect(count.body).toEqual({ count: expected.length, exact: true });
  return items;
}

/**
 * The words of a query as a person means them: accents and case aside, a number keeps its dash (and a
 * correlative's leading zeros mean nothing), any other word is split at punctuation.
 */
function typedTerms(query: string): string[] {
  return query
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/\s+/)
    .flatMap((word) => (/\d/.test(word) ? [word.replace(/-0+(?=\d)/, '-')] : word.split(/[^a-z0-9]+/).filter(Boolean)));
}
const words = (text: string) => normalizeForSearch(text).split(' ');

/**
 * What a search finds for staff, by hand: every word typed is a part of the series-number, the start of the
 * supplier's RUC or the start of a word of its name.
 */
function staffFinds(invoice: Invoice, query: string): boolean {
  return typedTerms(query).every(
    (term) =>
      invoice.id.toLowerCase().includes(term) ||
      invoice.supplierId.startsWith(term) ||
      words(invoice.supplierName).some((word) => word.startsWith(term)),
  );
}
/** For a supplier: the number, its client's RUC or name, or its own RUC or name. */
function supplierFinds(invoice: Invoice, query: string): boolean {
  return typedTerms(query).every(
    (term) =>
      invoice.id.toLowerCase().includes(term) ||
      [invoice.supplierId, invoice.client].some((ruc) => ruc.startsWith(term)) ||
      [...words(invoice.supplierName), ...words(invoice.clientName)].some((word) => word.startsWith(term)),
  );
}

const has =
  (field: 'status' | 'type', ...values: string[]) =>
  (invoice: Invoice) =>
    values.includes(invoice[field]);

describe('GET /invoices filters a manager company', () => {
  const pick = (predicate: (invoice: Invoice) => boolean) => atCompany.filter(predicate);
  const reviewed = atCompany.find((invoice) => invoice.responsible && invoice.officeId)!;
  const responsible = reviewed.responsible!.id;
  const office = reviewed.officeId!;

  it('has a demo world varied enough for every filter', () => {
    expect(new Set(atCompany.map((invoice) => invoice.status)).size).toBeGreaterThan(3);
    expect(new Set(atCompany.map((invoice) => invoice.type)).size).toBeGreaterThan(1);
    expect(new Set(atCompany.map((invoice) => invoice.supplierId)).size).toBeGreaterThan(1);
  });

  it('by one status, a status list, a type list, an office, a responsible and an issuer', async () => {
    const token = await manager();
    const client = COMPANY;
    await expectListing(token, { client, invoiceStatus: 'PENDING' }, pick(has('status', 'PENDING')));
    await expectListing(
      token,
      { client, invoiceStatus: 'PENDING,PAID,REJECTED' },
      pick(has('status', 'PENDING', 'PAID', 'REJECTED')),
    );
    await expectListing(
      token,
      { client, invoiceType: 'NOTA_DE_CREDITO,RECIBO_POR_HONORARIOS' },
      pick(has('type', 'NOTA_DE_CREDITO', 'RECIBO_POR_HONORARIOS')),
    );
    await expectListing(
      token,
      { client, office },
      pick((invoice) => invoice.officeId === office),
    );
    await expectListing(
      token,
      { client, responsible },
      pick((invoice) => invoice.responsible?.id === responsible),
    );
    await expectListing(
      token,
      { client, issuer: SUPPLIER.taxId },
      pick((invoice) => invoice.supplierId === SUPPLIER.taxId),
    );
  });

  it('by combinations: status list and type, office and status, issuer and statuses, responsible and type', async () => {
    const token = await manager();
    const client = COMPANY;
    const expected = [
      [
        { client, invoiceStatus: 'PENDING,ACCEPTED,PAID', invoiceType: 'FACTURA' },
        pick((i) => has('status', 'PENDING', 'ACCEPTED', 'PAID')(i) && i.type === 'FACTURA'),
      ],
      [
        { client, office, invoiceStatus: 'COMPLETED,SCHEDULED' },
        pick((i) => i.officeId === office && has('status', 'COMPLETED', 'SCHEDULED')(i)),
      ],
      [
        { client, issuer: SUPPLIER.taxId, invoiceStatus: 'PENDING,PAID,COMPLETED' },
        pick((i) => i.supplierId === SUPPLIER.taxId && has('status', 'PENDING', 'PAID', 'COMPLETED')(i)),
      ],
      [
        { acquirer: client, responsible, invoiceType: 'FACTURA,NOTA_DE_CREDITO', invoiceStatus: 'PAID,ACCEPTED' },
        pick(
          (i) =>
            i.responsible?.id === responsible &&
            has('type', 'FACTURA', 'NOTA_DE_CREDITO')(i) &&
            has('status', 'PAID', 'ACCEPTED')(i),
        ),
      ],
    ] as const;
    for (const [query, invoices] of expected) await expectListing(token, query, [...invoices]);
    expect(expected.filter(([, invoices]) => invoices.length > 0).length).toBeGreaterThan(2);
  });

  it('searches by any part of the invoice number, in upper or lower case', async () => {
    const token = await manager();
    const sample = atCompany.find((invoice) => invoice.type === 'FACTURA')!;
    for (const search of [
      sample.prefixId,
      sample.id.slice(0, 6).toLowerCase(),
      sample.id,
      sample.numericId,
      sample.numericId.slice(1),
      `${sample.prefixId}-000${sample.numericId}`,
    ]) {
      const expected = pick((invoice) => staffFinds(invoice, search));
      expect(expected.map(idOf)).toContain(idOf(sample));
      await expectListing(token, { client: COMPANY, search }, expected, 'search');
    }
    await expectListing(
      token,
      { client: COMPANY, search: sample.prefixId, invoiceStatus: 'PAID,PENDING' },
      pick((invoice) => staffFinds(invoice, sample.prefixId) && has('status', 'PAID', 'PENDING')(invoice)),
      'search',
    );
  });

  it('searches by supplier RUC prefix', async () => {
    const token = await manager();
    for (const search of [SUPPLIER.taxId.slice(0, 4), SUPPLIER.taxId, OTHER_SUPPLIER.taxId.slice(0, 6), '1']) {
      const expected = pick((invoice) => staffFinds(invoice, search));
      expect(expected.filter((invoice) => invoice.supplierId.startsWith(search)).length).toBeGreaterThan(0);
      await expectListing(token, { client: COMPANY, search }, expected, 'search');
    }
  });

  it('searches by any word of the business name, with or without accents and case', async () => {
    const token = await manager();
    for (const search of ['Ferretería El', 'ferreteria', 'CONSTRUCTOR', 'el constructor', 'Tributarios', 'quispe']) {
      const expected = pick((invoice) => staffFinds(invoice, search));
      expect(expected.length).toBeGreaterThan(0);
      await expectListing(token, { client: COMPANY, search }, expected, 'search');
    }
    await expectListing(token, { client: COMPANY, search: 'Zapatería' }, [], 'search');
  });

  it('pages a merged status list three at a time without repeating or losing an invoice', async () => {
    const token = await manager();
    const query = { client: COMPANY, invoiceStatus: 'PAID,PENDING,COMPLETED,REJECTED' };
    const items = await listAll(token, query, 3);
    const expected = pick(has('status', 'PAID', 'PENDING', 'COMPLETED', 'REJECTED'));
    expect(expected.length).toBeGreaterThan(6);
    expect(items.map(idOf)).toEqual(
      [...expected].sort((a, b) => (keys.invoiceOrder(a) < keys.invoiceOrder(b) ? 1 : -1)).map(idOf),
    );
  });
});

describe('GET /invoices filters a supplier to its own invoices', () => {
  const own = (predicate: (invoice: Invoice) => boolean) => ofSupplier.filter(predicate);

  it('by status list, type, client, office and responsible, alone and together', async () => {
    const token = await supplier();
    const reviewed = ofSupplier.find((invoice) => invoice.client === COMPANY && invoice.responsible)!;
    const cases: [Query, Invoice[]][] = [
      [{ invoiceStatus: 'PENDING,PAID' }, own(has('status', 'PENDING', 'PAID'))],
      [{ invoiceType: 'NOTA_DE_CREDITO' }, own(has('type', 'NOTA_DE_CREDITO'))],
      [{ client: COMPANY }, own((i) => i.client === COMPANY)],
      [
        { client: COMPANY, invoiceStatus: 'ACCEPTED,SCHEDULED,PAID' },
        own((i) => i.client === COMPANY && has('status', 'ACCEPTED', 'SCHEDULED', 'PAID')(i)),
      ],
      [
        { invoiceStatus: 'COMPLETED,PAID', invoiceType: 'FACTURA' },
        own((i) => has('status', 'COMPLETED', 'PAID')(i) && i.type === 'FACTURA'),
      ],
      [{ office: reviewed.officeId! }, own((i) => i.officeId === reviewed.officeId)],
      [
        { client: COMPANY, responsible: reviewed.responsible!.id },
        own((i) => i.client === COMPANY && i.responsible?.id === reviewed.responsible!.id),
      ],
      [{ issuer: SUPPLIER.taxId, invoiceStatus: 'REJECTED' }, own(has('status', 'REJECTED'))],
    ];
    for (const [query, expected] of cases) {
      expect(expected.length).toBeGreaterThan(0);
      await expectListing(token, query, expected);
    }
  });

  it("searches its own invoices by any part of the number, the client's RUC or name, and its own RUC or name", async () => {
    const token = await supplier();
    const credit = ofSupplier.find((invoice) => invoice.type === 'NOTA_DE_CREDITO')!;
    const client = CLIENTS.find((company) => company.taxId === COMPANY)!;
    for (const search of [
      'F001',
      credit.prefixId.toLowerCase(),
      credit.id,
      credit.numericId.slice(1),
      client.taxId.slice(0, 5),
      client.name.split(' ')[1]!,
      SUPPLIER.taxId,
      SUPPLIER.name.split(' ')[0]!.toUpperCase(),
    ]) {
      const expected = own((invoice) => supplierFinds(invoice, search));
      expect(expected.length).toBeGreaterThan(0);
      await expectListing(token, { search }, expected, 'search');
    }
    // Its own RUC finds everything it sent.
    expect(own((invoice) => supplierFinds(invoice, SUPPLIER.taxId))).toHaveLength(ofSupplier.length);
    await expectListing(
      token,
      { search: 'F001', client: COMPANY, invoiceStatus: 'PENDING,PAID' },
      own((i) => supplierFinds(i, 'F001') && i.client === COMPANY && has('status', 'PENDING', 'PAID')(i)),
      'search',
    );
  });

  it("never sees another supplier's invoice, whatever filter or search it sends", async () => {
    const token = await supplier();
    const theirs = world.invoices.find((invoice) => invoice.supplierId === OTHER_SUPPLIER.taxId)!;
    for (const query of [
      { search: theirs.id },
      { search: OTHER_SUPPLIER.taxId },
      { search: OTHER_SUPPLIER.taxId.slice(0, 3) },
      { search: OTHER_SUPPLIER.name },
      { search: 'Servicios' },
      { client: theirs.client, invoiceStatus: theirs.status },
      { invoiceType: 'FACTURA,NOTA_DE_CREDITO,RECIBO_POR_HONORARIOS' },
      { office: 'Sede Central' },
      { responsible: 'E1001', client: CLIENTS[0]!.taxId },
    ] as Query[]) {
      const items = await listAll(token, query, 20);
      expect(items.every((invoice) => invoice.supplierId === SUPPLIER.taxId)).toBe(true);
    }
    const denied = await call(routes.listInvoices, { token, query: { issuer: OTHER_SUPPLIER.taxId } });
    expect(denied.status).toBe(403);
  });
});

describe('filtered cursors', () => {
  it('are refused for another filter or another tenant', async () => {
    const token = await manager();
    const first = await call(routes.listInvoices, {
      token,
      query: { client: COMPANY, invoiceStatus: 'PENDING,PAID', limit: 2 },
    });
    expect(first.status).toBe(200);
    const cursor = first.body.nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    const resumed = await call(routes.listInvoices, {
      token,
      query: { client: COMPANY, invoiceStatus: 'PAID,PENDING', limit: 2, cursor },
    });
    expect(resumed.status).toBe(200);

    const replays: [string, Query][] = [
      [token, { client: COMPANY, invoiceStatus: 'PENDING,REJECTED', cursor }],
      [token, { client: COMPANY, invoiceStatus: 'PENDING,PAID', invoiceType: 'FACTURA', cursor }],
      [token, { client: COMPANY, cursor }],
      [token, { client: COMPANY, search: 'F001', cursor }],
      [token, { client: CLIENTS[0]!.taxId, invoiceStatus: 'PENDING,PAID', cursor }],
      [await supplier(), { invoiceStatus: 'PENDING,PAID', cursor }],
    ];
    for (const [caller, query] of replays) {
      const response = await call(routes.listInvoices, { token: caller, query });
      expect({ status: response.status, code: response.body.errors?.[0]?.code }).toEqual({
        status: 400,
        code: 'ERROR_INVALID_CURSOR',
      });
      expect(response.body.txId).toBe(response.requestId);
    }
  });
});
