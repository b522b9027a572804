import { describe, expect, it } from 'vitest';
import { routes, withCheckDigit, type InvoiceDetail, type InvoiceSummary } from '@portal/shared';
import { CLIENTS } from '../support/tenant.js';
import { call, idTokenOf } from '../support/api.js';
import { demoUser } from '../support/stage.js';
import { MINIMAL_PDF, uploadAs } from '../support/uploads.js';
import { randomCorrelative } from '../support/invoices.js';

// Daily use: the order a clerk reads, the totals, a history that is never lost, and the supplier's own
// name. What these tests store goes to the company no demo manager reviews, from suppliers of their own.

const adminToken = () => idTokenOf(demoUser('ADMIN').username, demoUser('ADMIN').password);
const COMPANY = CLIENTS[2]!.taxId;

async function submitForm(token: string, supplierTaxId: string, change: Record<string, unknown> = {}) {
  const pdfUrl = await uploadAs(token, 'INVOICE_PDF', MINIMAL_PDF, 'application/pdf', 'comprobante.pdf');
  const numericId = randomCorrelative();
  const response = await call(routes.createInvoiceWithoutXml, {
    token,
    body: {
      prefixId: 'F004',
      numericId,
      type: 'FACTURA',
      clientTaxId: COMPANY,
      supplierTaxId,
      supplierName: 'Proveedor del Día S.A.C.',
      currency: 'PEN',
      amount: 1180,
      taxAmount: 180,
      issueDate: '2025-06-02',
      pdfUrl,
      ...change,
    },
  });
  expect(response.status).toBe(201);
  return response.body as InvoiceSummary;
}

const pathOf = (invoice: Pick<InvoiceSummary, 'supplierId' | 'type' | 'id'>) => ({
  supplierId: invoice.supplierId,
  invoiceType: invoice.type,
  invoiceId: invoice.id,
});

describe('the list a clerk reads', () => {
  it('puts an invoice just received first, however old its issue date', async () => {
    const token = await adminToken();
    const supplier = withCheckDigit('2079200101');
    await submitForm(token, supplier, { issueDate: '2026-10-30' });
    const older = await submitForm(token, supplier, { issueDate: '2024-01-15' });

    const page = await call(routes.listInvoices, { token, query: { client: COMPANY, limit: 5 } });
    expect(page.status).toBe(200);
    expect(page.body.items[0]).toMatchObject({ id: older.id, issuedAt: '2024-01-15' });
    const bySupplier = await call(routes.listInvoices, { token, query: { client: COMPANY, issuer: supplier } });
    expect(bySupplier.body.items.map((invoice: InvoiceSummary) => invoice.issuedAt)).toEqual([
      '2024-01-15',
      '2026-10-30',
    ]);
  });

  it('counts what matches, and the count follows every change', async () => {
    const token = await adminToken();
    const supplier = withCheckDigit('2079200102');
    const count = async (query: Record<string, string>) =>
      (await call(routes.countInvoices, { token, query: { client: COMPANY, issuer: supplier, ...query } })).body;
    expect(await count({})).toEqual({ count: 0, exact: true });

    const first = await submitForm(token, supplier);
    await submitForm(token, supplier);
    expect(await count({})).toEqual({ count: 2, exact: true });
    expect(await count({ invoiceStatus: 'PENDING' })).toEqual({ count: 2, exact: true });

    const rejected = await call(routes.disapproveInvoice, {
      token,
      path: pathOf(first),
      query: { noRejection: 'false' },
      body: { reason: 'No corresponde a un servicio prestado.' },
    });
    expect(rejected.status).toBe(200);
    expect(await count({ invoiceStatus: 'PENDING' })).toEqual({ count: 1, exact: true });
    expect(await count({ invoiceStatus: 'REJECTED,PENDING' })).toEqual({ count: 2, exact: true });
    expect(await count({ invoiceType: 'BOLETA' })).toEqual({ count: 0, exact: true });
    // A search is counted by walking it: the same figure.
    expect(await count({ search: first.id })).toEqual({ count: 1, exact: true });
  });
});

describe('a history that is never lost', () => {
  it('continues the rejected invoice: its first registration and the rejection with its reason stay', async () => {
    const token = await adminToken();
    const supplier = withCheckDigit('2079200103');
    const first = await submitForm(token, supplier);
    const reason = 'Falta la guía de remisión; envíela de nuevo con la guía adjunta.';
    const rejected = await call(routes.disapproveInvoice, {
      token,
      path: pathOf(first),
      query: { noRejection: 'true' },
      body: { reason },
    });
    expect(rejected.status).toBe(200);

    const again = await submitForm(token, supplier, { numericId: first.numericId, amount: 1298, taxAmount: 198 });
    expect(again.id).toBe(first.id);

    const detail = await call(routes.getInvoice, { token, path: pathOf(first) });
    const history = (detail.body as InvoiceDetail).statusHistory;
    expect(history.map((entry) => [entry.status, entry.additionalMessage])).toEqual([
      ['PENDING', 'Comprobante recibido'],
      ['REJECTED', reason],
      ['PENDING', 'Comprobante enviado nuevamente tras el rechazo'],
    ]);
    expect(detail.body).toMatchObject({ status: 'PENDING', amount: 1298 });

    // Found once by its number, as the new submission; counted once.
    const search = await call(routes.listInvoices, { token, query: { client: COMPANY, search: first.id } });
    expect(search.body.items.map((invoice: InvoiceSummary) => [invoice.id, invoice.amount])).toEqual([
      [first.id, 1298],
    ]);
    const counted = await call(routes.countInvoices, { token, query: { client: COMPANY, issuer: supplier } });
    expect(counted.body).toEqual({ count: 1, exact: true });
  });
});

describe("the supplier's own name", () => {
  it('is the one the directory knows its RUC by, whatever the form says', async () => {
    const token = await adminToken();
    const supplier = withCheckDigit('2079200104');
    const first = await submitForm(token, supplier, { supplierName: 'Transportes Huallaga S.A.C.' });
    expect(first.supplierName).toBe('Transportes Huallaga S.A.C.');

    const impostor = await submitForm(token, supplier, { supplierName: 'Corporación Andina de Alimentos S.A.A.' });
    expect(impostor.supplierName).toBe('Transportes Huallaga S.A.C.');
    const unnamed = await submitForm(token, supplier, { supplierName: undefined });
    expect(unnamed.supplierName).toBe('Transportes Huallaga S.A.C.');
  });
});
