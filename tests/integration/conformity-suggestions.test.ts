import { describe, expect, it } from 'vitest';
import { keys, routes, withCheckDigit, type ConformityKind, type Currency } from '@portal/shared';
import { CLIENTS, EMPLOYEES, OFFICE_LOCATIONS } from '../support/tenant.js';
import { call, idTokenOf } from '../support/api.js';
import { conformityFixture, reviewFixture, table, type ReviewFixture } from '../support/fixtures.js';
import { demoUser } from '../support/stage.js';

/**
 * Conformity suggestions: entering a purchase order proposes its open HES or MIGO that add up to the invoice amount
 * without IGV. Every test brings its own invoice, order and documents at the manager's first company, for a supplier
 * that exists only here; the documents of another supplier, currency or company, and the ones another invoice holds,
 * sit on the same order number and must never be proposed.
 */
const COMPANY = CLIENTS[0]!;
const FOREIGN = CLIENTS[2]!;
const SUPPLIER = { taxId: withCheckDigit('2070000023'), name: 'Proveedor Sugerencias S.A.C.' };
const OTHER_SUPPLIER = { taxId: withCheckDigit('2070000024'), name: 'Otro Proveedor Sugerencias S.A.C.' };
const EMPLOYEE = EMPLOYEES[COMPANY.taxId]![0]!;
const OFFICE = OFFICE_LOCATIONS[COMPANY.taxId]![1]!;

const manager = () => idTokenOf(demoUser('MANAGER').username, demoUser('MANAGER').password);

const pathOf = ({ invoice }: Pick<ReviewFixture, 'invoice'>) => ({
  supplierId: invoice.supplierId,
  invoiceType: invoice.type,
  invoiceId: invoice.id,
});
const netOf = ({ invoice }: ReviewFixture) => Math.round((invoice.amount - invoice.taxAmount) * 100) / 100;

/** An invoice whose order has no document yet: each test adds the order's documents it needs. */
async function invoiceWithOrder(net: number): Promise<ReviewFixture & { purchaseOrder: string }> {
  const f = await reviewFixture({
    client: COMPANY.taxId,
    clientName: COMPANY.name,
    supplier: SUPPLIER,
    kind: 'SERVICE_SHEET',
    net,
  });
  // The fixture's own sheet (the whole net) is held by another invoice: never proposed.
  await claim(f.document!.kind, COMPANY.taxId, f.document!.documentId, 'INVOICE#someone#FACTURA#F999-1');
  return { ...f, purchaseOrder: f.purchaseOrder! };
}

function add(
  f: { purchaseOrder: string },
  amount: number,
  options: { kind?: ConformityKind; supplierId?: string; currency?: Currency; client?: string } = {},
) {
  return conformityFixture({
    kind: options.kind ?? 'SERVICE_SHEET',
    client: options.client ?? COMPANY.taxId,
    supplierId: options.supplierId ?? SUPPLIER.taxId,
    purchaseOrder: f.purchaseOrder,
    currency: options.currency ?? 'PEN',
    amount,
  }).then((doc) => doc.documentId);
}

async function claim(kind: ConformityKind, client: string, documentId: string, by: string) {
  const item = await table().get(keys.conformity(kind, client, documentId));
  await table().put({ ...item!, claimedBy: by, associatedInvoice: 'F999-1' } as never);
}

async function suggestions(f: ReviewFixture, purchaseOrder = f.purchaseOrder!) {
  return call(routes.suggestConformityDocuments, {
    token: await manager(),
    path: pathOf(f),
    query: { purchaseOrder },
  });
}

const idsOf = (suggestion: { documents: { documentId: string }[] }) =>
  suggestion.documents.map((doc) => doc.documentId).sort();

describe('GET conformity-suggestions', () => {
  it('proposes the sheets that add up exactly first, and never another supplier’s, currency’s, company’s or invoice’s', async () => {
    const f = await invoiceWithOrder(1500);
    const net = netOf(f);
    const a = await add(f, 900);
    const b = await add(f, net - 900);
    const c = await add(f, 350);
    const others = [
      await add(f, net, { supplierId: OTHER_SUPPLIER.taxId }),
      await add(f, net, { currency: 'USD' }),
      await add(f, net, { client: FOREIGN.taxId }),
    ];

    const response = await suggestions(f);

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      purchaseOrder: f.purchaseOrder,
      currency: 'PEN',
      target: net,
      candidates: 3,
      complete: true,
    });
    const [first, ...rest] = response.body.suggestions;
    expect(first).toMatchObject({ kind: 'SERVICE_SHEET', exact: true, total: net, difference: 0 });
    expect(idsOf(first)).toEqual([a, b].sort());
    expect(rest.every((suggestion: { exact: boolean }) => !suggestion.exact)).toBe(true);
    const offered = new Set(response.body.suggestions.flatMap(idsOf));
    expect([...offered].sort()).toEqual([a, b, c].sort());
    for (const id of [...others, f.document!.documentId]) expect(offered.has(id)).toBe(false);
  });

  it('proposes the closest sums when none is exact, and never mixes HES with MIGO', async () => {
    const f = await invoiceWithOrder(1000);
    const hes = await add(f, 600);
    const migo = await add(f, 400, { kind: 'MATERIAL_DOCUMENT' });

    const response = await suggestions(f);

    expect(response.status).toBe(200);
    const found = response.body.suggestions as { kind: ConformityKind; documents: { documentId: string }[] }[];
    // 600 of HES is 400 short, 400 of MIGO 600 short; 1,000 would need both kinds on one invoice.
    expect(found).toMatchObject([
      { kind: 'SERVICE_SHEET', difference: -400, exact: false },
      { kind: 'MATERIAL_DOCUMENT', difference: -600, exact: false },
    ]);
    expect(found.map(idsOf)).toEqual([[hes], [migo]]);
  });

  it('keeps the sheets an invoice saved for that invoice, and takes them from the next invoice on the order', async () => {
    const f = await invoiceWithOrder(1200);
    const net = netOf(f);
    const a = await add(f, 700);
    const b = await add(f, net - 700);
    const saved = await call(routes.updateInvoice, {
      token: await manager(),
      path: pathOf(f),
      body: {
        operationType: 'SERVICES',
        responsibleId: EMPLOYEE.id,
        officeId: OFFICE.office,
        locationId: OFFICE.id,
        purchaseOrders: [f.purchaseOrder],
        serviceSheets: [a, b],
        materialDocs: [],
        attachments: [],
      },
    });
    expect(saved.status).toBe(200);

    const own = await suggestions(f);
    expect(idsOf(own.body.suggestions[0])).toEqual([a, b].sort());

    // Another invoice of the same supplier on the same order: those sheets are used.
    const second = await reviewFixture({
      client: COMPANY.taxId,
      clientName: COMPANY.name,
      supplier: SUPPLIER,
      kind: null,
      net: 1200,
    });
    const theirs = await suggestions(second, f.purchaseOrder);
    expect(theirs.status).toBe(200);
    const offered = theirs.body.suggestions.flatMap(idsOf);
    expect(offered).not.toContain(a);
    expect(offered).not.toContain(b);
  });

  it("answers 404 for another supplier's order and for an invoice of a company the manager does not manage", async () => {
    const f = await invoiceWithOrder(800);
    const stranger = await reviewFixture({
      client: COMPANY.taxId,
      clientName: COMPANY.name,
      supplier: OTHER_SUPPLIER,
      kind: 'SERVICE_SHEET',
    });
    const notTheirs = await suggestions(f, stranger.purchaseOrder!);
    expect({ status: notTheirs.status, code: notTheirs.body.errors[0].code }).toEqual({
      status: 404,
      code: 'ERROR_PURCHASE_ORDER_NOT_FOUND',
    });

    const foreign = await reviewFixture({
      client: FOREIGN.taxId,
      clientName: FOREIGN.name,
      supplier: SUPPLIER,
      kind: 'SERVICE_SHEET',
    });
    const outOfReach = await suggestions(foreign);
    expect({ status: outOfReach.status, code: outOfReach.body.errors[0].code }).toEqual({
      status: 404,
      code: 'ERROR_INVOICE_NOT_FOUND',
    });
  });
});
