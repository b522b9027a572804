import { describe, expect, it } from 'vitest';
import { routes, withCheckDigit, type ConformityDocument, type ConformityKind, type RouteDef } from '@portal/shared';
import { CLIENTS, EMPLOYEES, SUPPLIERS, buildWorld, type SeedConformityDocument } from '../support/tenant.js';
import { call, idTokenOf, type CallResult } from '../support/api.js';
import { demoUser } from '../support/stage.js';

/**
 * HES and MIGO lists and the availability checks (spec §7: 404 means not available), compared with
 * the demo world. They read CLIENTS[1], managed by the demo manager, where no other test adds or
 * claims documents (the review tests work at CLIENTS[0] with their own documents).
 */
const world = buildWorld();
const COMPANY = CLIENTS[1]!.taxId;
const FOREIGN = CLIENTS[2]!.taxId;
const UNKNOWN_COMPANY = withCheckDigit('2099999999');
const ISSUER = SUPPLIERS[0]!.taxId;
const OTHER_ISSUER = SUPPLIERS[1]!.taxId;

const LIST: Record<ConformityKind, RouteDef> = {
  SERVICE_SHEET: routes.listServiceSheets,
  MATERIAL_DOCUMENT: routes.listMaterialDocs,
};
const AVAILABILITY: Record<ConformityKind, RouteDef> = {
  SERVICE_SHEET: routes.serviceSheetAvailability,
  MATERIAL_DOCUMENT: routes.materialDocAvailability,
};
const NOT_FOUND: Record<ConformityKind, string> = {
  SERVICE_SHEET: 'ERROR_HES_NOT_FOUND',
  MATERIAL_DOCUMENT: 'ERROR_MIGO_NOT_FOUND',
};

const tokenOf = (role: 'MANAGER' | 'ADMIN') => idTokenOf(demoUser(role).username, demoUser(role).password);

/** A seed document as the HES/MIGO screens show it (spec §3). */
const rowOf = ({ kind: _kind, claimedBy: _claimedBy, ...row }: SeedConformityDocument): ConformityDocument => row;
const orderKey = (doc: { fiscalYear: string; documentId: string }) => `${doc.fiscalYear}#${doc.documentId}`;
/** Newest fiscal year first, then by document number, as the screens list them. */
const newestFirst = (docs: ConformityDocument[]) =>
  [...docs].sort((a, b) => (orderKey(a) < orderKey(b) ? 1 : orderKey(a) > orderKey(b) ? -1 : 0));

function seedRows(kind: ConformityKind, match: (doc: SeedConformityDocument) => boolean): ConformityDocument[] {
  return newestFirst(
    world.conformityDocuments
      .filter((doc) => doc.kind === kind && doc.acquirerTaxId === COMPANY && match(doc))
      .map(rowOf),
  );
}

/** An employee responsible for some of the company's documents of a kind (one of its employees). */
function responsibleOf(kind: ConformityKind, match: (doc: SeedConformityDocument) => boolean): string {
  const doc = world.conformityDocuments.find(
    (candidate) => candidate.kind === kind && candidate.acquirerTaxId === COMPANY && match(candidate),
  )!;
  expect(EMPLOYEES[COMPANY]!.map((employee) => employee.id)).toContain(doc.responsible);
  return doc.responsible;
}

function seedDocument(kind: ConformityKind, free: boolean): SeedConformityDocument {
  const doc = world.conformityDocuments.find(
    (candidate) =>
      candidate.kind === kind &&
      candidate.acquirerTaxId === COMPANY &&
      candidate.issuerTaxId === ISSUER &&
      (candidate.claimedBy === null) === free,
  );
  if (!doc) throw new Error(`The seed has no ${free ? 'free' : 'claimed'} ${kind} of ${ISSUER} at ${COMPANY}`);
  return doc;
}

function expectError(response: CallResult, status: number, code: string, parameters?: Record<string, unknown>) {
  expect({ status: response.status, code: response.body?.errors?.[0]?.code }).toEqual({ status, code });
  if (parameters) expect(response.body.errors[0].parameters).toEqual(parameters);
  expect(response.body.txId).toBe(response.requestId);
  expect(response.body.message).toEqual(expect.any(String));
}

/** Walks every page, checking that no page is larger than asked. */
async function walk(def: RouteDef, token: string, query: Record<string, string | number>, limit: number) {
  const items: ConformityDocument[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await call(def, { token, query: { ...query, limit, cursor } });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.items.length).toBeLessThanOrEqual(limit);
    items.push(...page.body.items);
    cursor = page.body.nextCursor ?? undefined;
    pages += 1;
  } while (cursor && pages < 200);
  return { items, pages };
}

describe.each(['SERVICE_SHEET', 'MATERIAL_DOCUMENT'] as const)('%s lists', (kind) => {
  const list = LIST[kind];

  it("lists all of the acquirer's documents, newest first, page by page without repeating any", async () => {
    const expected = seedRows(kind, () => true);
    expect(expected.length).toBeGreaterThan(5);

    const { items, pages } = await walk(list, await tokenOf('MANAGER'), { acquirer: COMPANY }, 4);

    expect(items).toEqual(expected);
    expect(pages).toBeGreaterThan(1);
  });

  it('narrows to one issuer', async () => {
    const { items } = await walk(list, await tokenOf('MANAGER'), { acquirer: COMPANY, issuer: ISSUER }, 3);

    expect(items).toEqual(seedRows(kind, (doc) => doc.issuerTaxId === ISSUER));
  });

  it('narrows to one responsible', async () => {
    const responsible = responsibleOf(kind, () => true);

    const { items } = await walk(list, await tokenOf('MANAGER'), { acquirer: COMPANY, responsible }, 2);

    const expected = seedRows(kind, (doc) => doc.responsible === responsible);
    expect(expected.length).toBeGreaterThan(0);
    expect(items).toEqual(expected);
  });

  it('narrows to one issuer and one responsible, never handing out more than a page', async () => {
    const responsible = responsibleOf(kind, (doc) => doc.issuerTaxId === OTHER_ISSUER);
    const expected = seedRows(kind, (doc) => doc.issuerTaxId === OTHER_ISSUER && doc.responsible === responsible);
    expect(expected.length).toBeGreaterThan(0);

    const { items } = await walk(
      list,
      await tokenOf('MANAGER'),
      { acquirer: COMPANY, issuer: OTHER_ISSUER, responsible },
      1,
    );

    expect(items).toEqual(expected);
  });
});

describe('conformity lists refuse what the caller may not see', () => {
  it("refuses a manager another company's documents", async () => {
    const response = await call(routes.listServiceSheets, {
      token: await tokenOf('MANAGER'),
      query: { acquirer: FOREIGN },
    });
    expectError(response, 403, 'ERROR_COMPANY_NOT_ALLOWED', { companyId: FOREIGN });
  });

  it('lets an admin list any company, and answers 404 for a company outside the group', async () => {
    const token = await tokenOf('ADMIN');
    const { items } = await walk(routes.listMaterialDocs, token, { acquirer: FOREIGN }, 50);
    // The MIRO tests register documents of their own at this company: the seed's are all there, and only this company's.
    expect(items.every((doc: { acquirerTaxId: string }) => doc.acquirerTaxId === FOREIGN)).toBe(true);
    expect(items).toEqual(
      expect.arrayContaining(
        world.conformityDocuments
          .filter((doc) => doc.kind === 'MATERIAL_DOCUMENT' && doc.acquirerTaxId === FOREIGN)
          .map(rowOf),
      ),
    );

    const unknown = await call(routes.listMaterialDocs, { token, query: { acquirer: UNKNOWN_COMPANY } });
    expectError(unknown, 404, 'ERROR_CLIENT_NOT_FOUND');
  });

  it('refuses a cursor handed out by another listing', async () => {
    const token = await tokenOf('MANAGER');
    const first = await call(routes.listServiceSheets, {
      token,
      query: { acquirer: COMPANY, issuer: ISSUER, limit: 1 },
    });
    expect(first.body.nextCursor).toEqual(expect.any(String));

    for (const query of [
      { acquirer: COMPANY },
      { acquirer: COMPANY, issuer: OTHER_ISSUER },
      { acquirer: CLIENTS[0]!.taxId, issuer: ISSUER },
    ]) {
      const response = await call(routes.listServiceSheets, {
        token,
        query: { ...query, cursor: first.body.nextCursor },
      });
      expectError(response, 400, 'ERROR_INVALID_CURSOR');
    }
    const otherKind = await call(routes.listMaterialDocs, {
      token,
      query: { acquirer: COMPANY, issuer: ISSUER, cursor: first.body.nextCursor },
    });
    expectError(otherKind, 400, 'ERROR_INVALID_CURSOR');
  });
});

describe.each(['SERVICE_SHEET', 'MATERIAL_DOCUMENT'] as const)('%s availability', (kind) => {
  const availability = AVAILABILITY[kind];
  const check = async (id: string, issuer = ISSUER, acquirer = COMPANY, role: 'MANAGER' | 'ADMIN' = 'MANAGER') =>
    call(availability, { token: await tokenOf(role), path: { id }, query: { acquirer, issuer } });

  it('answers 200 with the document when the supplier issued it and no invoice uses it', async () => {
    const free = seedDocument(kind, true);

    const response = await check(free.documentId);

    expect(response.status).toBe(200);
    expect(response.body).toEqual(rowOf(free));
  });

  it('answers 404 with its own code for an unknown document and for another supplier', async () => {
    const free = seedDocument(kind, true);

    expectError(await check('9999999999'), 404, NOT_FOUND[kind], { documentId: '9999999999' });
    expectError(await check(free.documentId, OTHER_ISSUER), 404, NOT_FOUND[kind], { documentId: free.documentId });
  });

  it('answers 404 "not available" for a document another invoice already uses', async () => {
    const claimed = seedDocument(kind, false);

    const response = await check(claimed.documentId);

    expectError(response, 404, 'ERROR_CONFORMITY_DOCUMENT_NOT_AVAILABLE', { documentId: claimed.documentId });
  });

  it('does not take a document of the other kind for one of this kind', async () => {
    const other = seedDocument(kind === 'SERVICE_SHEET' ? 'MATERIAL_DOCUMENT' : 'SERVICE_SHEET', true);

    expectError(await check(other.documentId), 404, NOT_FOUND[kind], { documentId: other.documentId });
  });

  it("refuses a manager another company's document and tells an admin a company is unknown", async () => {
    const free = seedDocument(kind, true);

    expectError(await check(free.documentId, ISSUER, FOREIGN), 403, 'ERROR_COMPANY_NOT_ALLOWED', {
      companyId: FOREIGN,
    });
    expectError(await check(free.documentId, ISSUER, UNKNOWN_COMPANY, 'ADMIN'), 404, 'ERROR_CLIENT_NOT_FOUND');
  });
});

describe('purchase order availability', () => {
  const check = async (id: string, issuer = ISSUER, acquirer = COMPANY) =>
    call(routes.purchaseOrderAvailability, {
      token: await tokenOf('MANAGER'),
      path: { id },
      query: { acquirer, issuer },
    });
  const order = world.purchaseOrders.find((po) => po.acquirerTaxId === COMPANY && po.issuerTaxId === ISSUER)!;

  it('answers 200 for an order of the supplier at the acquirer', async () => {
    const response = await check(order.id);

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: order.id, available: true });
  });

  it('answers 404 for an unknown order, another supplier and another acquirer', async () => {
    expectError(await check('4599999999'), 404, 'ERROR_PURCHASE_ORDER_NOT_FOUND', { documentId: '4599999999' });
    expectError(await check(order.id, OTHER_ISSUER), 404, 'ERROR_PURCHASE_ORDER_NOT_FOUND', { documentId: order.id });
    expectError(await check(order.id, ISSUER, CLIENTS[0]!.taxId), 404, 'ERROR_PURCHASE_ORDER_NOT_FOUND', {
      documentId: order.id,
    });
  });

  it("refuses a manager another company's orders", async () => {
    expectError(await check(order.id, ISSUER, FOREIGN), 403, 'ERROR_COMPANY_NOT_ALLOWED', { companyId: FOREIGN });
  });
});
