import { describe, expect, it } from 'vitest';
import { keys, routes, type Invoice, type InvoiceDetail, type InvoiceSummary } from '@portal/shared';
import { CLIENTS, SUPPLIERS, tenantFixture } from '../support/tenant.js';
import { call, idTokenOf, type CallResult } from '../support/api.js';
import { table } from '../support/fixtures.js';
import { demoUser } from '../support/stage.js';
import { MINIMAL_PDF, uploadAs } from '../support/uploads.js';

// Every document SUNAT accepts, read right (docs/ap-documents.md): each shape of the corpus through
// POST /invoices, and what the stored invoice then says.

const [CORPORACION_ANDINA, MINERA_PACIFICO_SUR, TRANSPORTES_INCA] = CLIENTS.map((client) => client.taxId) as [
  string,
  string,
  string,
];
const [SERVICIOS_INDUSTRIALES, FERRETERIA, , QUISPE] = SUPPLIERS.map((supplier) => supplier.taxId) as [
  string,
  string,
  string,
  string,
];

/**
 * A corpus document, issued by the demo supplier to the demo manager's first company where the corpus names
 * Ferretería or Minera Pacífico Sur: the filter and list tests compare those two with the seed, invoice by invoice.
 */
const corpus = (name: string) =>
  Buffer.from(
    tenantFixture(`ubl/${name}`)
      .replaceAll(FERRETERIA, SERVICIOS_INDUSTRIALES)
      .replaceAll(MINERA_PACIFICO_SUR, CORPORACION_ANDINA),
  );
const supplierToken = () => idTokenOf(demoUser('SUPPLIER').username, demoUser('SUPPLIER').password);
const adminToken = () => idTokenOf(demoUser('ADMIN').username, demoUser('ADMIN').password);
const managerToken = () => idTokenOf(demoUser('MANAGER').username, demoUser('MANAGER').password);

// The body is an Invoice on success and the error body otherwise: each test reads the one it expects.
async function submitXml(token: string, file: Buffer | string): Promise<CallResult<any>> {
  const bytes = typeof file === 'string' ? Buffer.from(file, 'utf8') : file;
  const url = await uploadAs(token, 'INVOICE_XML', bytes, 'application/xml', 'comprobante.xml');
  return call(routes.createInvoiceFromXml, { token, body: { url } });
}

async function stored(supplierId: string, type: string, id: string): Promise<Record<string, unknown> | undefined> {
  return table().get(keys.invoice(supplierId, type, id));
}

const NOTHING_DEDUCTED = { allowances: [], charges: [], prepaidAmount: 0, prepayments: [] };

describe('POST /invoices: every document SUNAT accepts, stored as it reads', () => {
  it('stores a transferencia gratuita with nothing to pay, and the list says so', async () => {
    const token = await supplierToken();

    const response = await submitXml(token, corpus('factura-gratuita.xml'));

    expect(response.status).toBe(201);
    const breakdown = {
      operationType: '0101',
      saleValue: 0,
      taxes: { igv: 0, isc: 0, icbper: 0, other: 0 },
      incomeTaxWithholding: 0,
      ...NOTHING_DEDUCTED,
      freeOfCharge: true,
      freeOfChargeValue: 400,
    };
    expect(response.body).toMatchObject({
      id: 'F001-601',
      type: 'FACTURA',
      status: 'PENDING',
      supplierId: SERVICIOS_INDUSTRIALES,
      client: CORPORACION_ANDINA,
      currency: 'PEN',
      amount: 0,
      taxAmount: 0,
      breakdown,
    });
    expect(await stored(SERVICIOS_INDUSTRIALES, 'FACTURA', 'F001-601')).toMatchObject({ amount: 0, breakdown });

    const listed = await call<{ items: InvoiceSummary[] }>(routes.listInvoices, {
      token: await managerToken(),
      query: { client: CORPORACION_ANDINA, search: 'F001-601' },
      headers: { 'x-company-id': CORPORACION_ANDINA },
    });
    // The search finds any number containing 601 (other tests' F001-601xxxxx too): this one is listed once, free.
    const rows = listed.body.items.filter(
      (invoice) => invoice.supplierId === SERVICIOS_INDUSTRIALES && invoice.id === 'F001-601',
    );
    expect(rows.map((invoice) => [invoice.id, invoice.amount, invoice.breakdown?.freeOfCharge])).toEqual([
      ['F001-601', 0, true],
    ]);
  });

  it('stores ISC and ICBPER beside the IGV', async () => {
    const response = await submitXml(await supplierToken(), corpus('factura-isc-icbper.xml'));

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      id: 'F001-602',
      supplierId: SERVICIOS_INDUSTRIALES,
      client: CORPORACION_ANDINA,
      amount: 2928.87,
      taxAmount: 446.47,
      purchaseOrders: ['4500012602'],
      breakdown: {
        operationType: '0101',
        saleValue: 2200.4,
        taxes: { igv: 446.47, isc: 280, icbper: 2, other: 0 },
        ...NOTHING_DEDUCTED,
        freeOfCharge: false,
      },
    });
  });

  it('stores global discounts and charges with their catálogo 53 codes', async () => {
    const response = await submitXml(await supplierToken(), corpus('factura-descuento-cargo.xml'));

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      id: 'F001-603',
      amount: 11230,
      taxAmount: 1710,
      breakdown: {
        saleValue: 9500,
        allowances: [
          { code: '02', amount: 500 },
          { code: '03', amount: 100 },
        ],
        charges: [{ code: '50', amount: 120 }],
        prepaidAmount: 0,
      },
    });
  });

  it('stores the anticipos deducted and the document that billed them', async () => {
    const response = await submitXml(await supplierToken(), corpus('factura-anticipo.xml'));

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      id: 'F001-604',
      amount: 4720,
      taxAmount: 720,
      breakdown: { saleValue: 5000, prepaidAmount: 1180, prepayments: [{ documentId: 'F001-00000590', amount: 1180 }] },
    });
  });

  it('stores an exportación in dollars without IGV, and a factura in dollars', async () => {
    const token = await supplierToken();

    const exported = await submitXml(token, corpus('factura-exportacion-usd.xml'));
    const dollars = await submitXml(token, corpus('factura-usd-credito.xml'));

    expect(exported.status).toBe(201);
    expect(exported.body).toMatchObject({
      id: 'F001-605',
      client: CORPORACION_ANDINA,
      currency: 'USD',
      amount: 2450.5,
      taxAmount: 0,
      breakdown: { operationType: '0200', taxes: { igv: 0, isc: 0, icbper: 0, other: 0 } },
    });
    expect(dollars.status).toBe(201);
    expect(dollars.body).toMatchObject({ id: 'F001-606', currency: 'USD', amount: 2950, taxAmount: 450 });
  });

  it('stores recibos por honorarios with and without the retención de 4ta categoría', async () => {
    const token = await adminToken();

    const withheld = await submitXml(token, corpus('recibo-honorarios.xml'));
    const notWithheld = await submitXml(token, corpus('recibo-honorarios-sin-retencion.xml'));

    expect(withheld.status).toBe(201);
    expect(withheld.body).toMatchObject({
      id: 'E001-27',
      type: 'RECIBO_POR_HONORARIOS',
      supplierId: QUISPE,
      client: TRANSPORTES_INCA,
      amount: 1840,
      taxAmount: 0,
      breakdown: { saleValue: 2000, incomeTaxWithholding: 160, operationType: null },
    });
    expect(notWithheld.status).toBe(201);
    expect(notWithheld.body).toMatchObject({
      id: 'E001-31',
      type: 'RECIBO_POR_HONORARIOS',
      amount: 1200,
      breakdown: { saleValue: 1200, incomeTaxWithholding: 0 },
    });
  });

  it('stores a boleta to a group company, and the detail answers its breakdown', async () => {
    const response = await submitXml(await supplierToken(), corpus('boleta-a-empresa.xml'));

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ id: 'B002-607', type: 'BOLETA', amount: 177, taxAmount: 27 });
    const detail = await call<InvoiceDetail>(routes.getInvoice, {
      token: await managerToken(),
      path: { supplierId: SERVICIOS_INDUSTRIALES, invoiceType: 'BOLETA', invoiceId: 'B002-607' },
      headers: { 'x-company-id': CORPORACION_ANDINA },
    });
    expect(detail.status).toBe(200);
    expect(detail.body.breakdown).toMatchObject({ operationType: '0101', saleValue: 150, taxes: { igv: 27 } });
  });

  it('keeps no breakdown for an invoice typed in the form', async () => {
    const token = await adminToken();
    const pdfUrl = await uploadAs(token, 'INVOICE_PDF', MINIMAL_PDF, 'application/pdf', 'factura.pdf');

    const response = await call<Invoice>(routes.createInvoiceWithoutXml, {
      token,
      body: {
        prefixId: 'F001',
        numericId: '608',
        type: 'FACTURA',
        clientTaxId: CORPORACION_ANDINA,
        supplierTaxId: SERVICIOS_INDUSTRIALES,
        currency: 'PEN',
        amount: 118,
        taxAmount: 18,
        issueDate: '2025-07-02',
        pdfUrl,
      },
    });

    expect(response.status).toBe(201);
    expect(response.body.breakdown).toBeNull();
  });
});

describe('POST /invoices: amounts that do not add up are refused, in Spanish, and nothing is stored', () => {
  it('refuses an importe total that is not the precio de venta plus charges less discounts', async () => {
    const xml = corpus('factura-descuento-cargo.xml')
      .toString('utf8')
      .replace('F001-00000603', 'F001-00000613')
      .replace('<cbc:PayableAmount currencyID="PEN">11230.00<', '<cbc:PayableAmount currencyID="PEN">11330.00<');

    const response = await submitXml(await supplierToken(), xml);

    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      {
        code: 'ERROR_XML_INCONSISTENT_AMOUNTS',
        parameters: { field: 'importe total', stated: 'S/ 11,330.00', computed: 'S/ 11,230.00' },
      },
    ]);
    expect(response.body.message).toMatch(/^Los importes del XML no cuadran/);
    expect(await stored(SERVICIOS_INDUSTRIALES, 'FACTURA', 'F001-613')).toBeUndefined();
  });

  it('refuses an importe total of 0.00 the XML does not explain, and a negative discount', async () => {
    const token = await supplierToken();
    const zero = corpus('factura-usd-credito.xml')
      .toString('utf8')
      .replace('F001-00000606', 'F001-00000616')
      .replace(/(TaxInclusiveAmount currencyID="USD">)2950.00/, (_, open: string) => `${open}0.00`)
      .replace(/(PayableAmount currencyID="USD">)2950.00/, (_, open: string) => `${open}0.00`);
    const negative = corpus('factura-descuento-cargo.xml')
      .toString('utf8')
      .replace('F001-00000603', 'F001-00000623')
      .replace('<cbc:Amount currencyID="PEN">500.00</cbc:Amount>', '<cbc:Amount currencyID="PEN">-500.00</cbc:Amount>');

    const zeroAnswer = await submitXml(token, zero);
    const negativeAnswer = await submitXml(token, negative);

    expect([zeroAnswer.status, zeroAnswer.body.errors[0].code]).toEqual([400, 'ERROR_XML_ZERO_TOTAL_UNEXPLAINED']);
    expect(zeroAnswer.body.message).toBe(
      'El importe total del comprobante es 0.00, pero el XML no lo declara como transferencia gratuita ni como cubierto por anticipos.',
    );
    expect([negativeAnswer.status, negativeAnswer.body.errors[0].code]).toEqual([400, 'ERROR_XML_NEGATIVE_AMOUNT']);
    expect(await stored(SERVICIOS_INDUSTRIALES, 'FACTURA', 'F001-616')).toBeUndefined();
    expect(await stored(SERVICIOS_INDUSTRIALES, 'FACTURA', 'F001-623')).toBeUndefined();
  });
});
