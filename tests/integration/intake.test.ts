import { describe, expect, it } from 'vitest';
import { keys, routes, withCheckDigit, type Invoice, type InvoiceDetail } from '@portal/shared';
import { CLIENTS, SUPPLIERS, tenantFixture } from '../support/tenant.js';
import { call, idTokenOf, type CallResult } from '../support/api.js';
import { table } from '../support/fixtures.js';
import { demoAccount, demoUser } from '../support/stage.js';
import { MINIMAL_PDF, uploadAs } from '../support/uploads.js';

const corpus = (name: string) => Buffer.from(tenantFixture(`ubl/${name}`));
const supplierToken = () => idTokenOf(demoUser('SUPPLIER').username, demoUser('SUPPLIER').password);
const adminToken = () => idTokenOf(demoUser('ADMIN').username, demoUser('ADMIN').password);
const managerToken = () => idTokenOf(demoUser('MANAGER').username, demoUser('MANAGER').password);
const otherSupplier = demoAccount('proveedor2@demo.pe');

function expectError(response: CallResult, status: number, code: string) {
  expect({ status: response.status, code: response.body?.errors?.[0]?.code }).toEqual({ status, code });
  expect(response.body.txId).toBe(response.requestId);
}

async function submitXml(token: string, file: Buffer) {
  const url = await uploadAs(token, 'INVOICE_XML', file, 'application/xml', 'comprobante.xml');
  return call(routes.createInvoiceFromXml, { token, body: { url } });
}

/** A form for the test-only supplier, submitted by the admin (who may submit for anyone). */
function form(numericId: string, change: Record<string, unknown> = {}) {
  return {
    prefixId: 'F002',
    numericId,
    type: 'FACTURA',
    clientTaxId: CLIENTS[0]!.taxId,
    supplierTaxId: withCheckDigit('2070000005'),
    supplierName: 'Proveedor de Ingreso S.A.C.',
    currency: 'USD',
    amount: 1180.5,
    taxAmount: 180.08,
    issueDate: '2026-11-18',
    notes: 'Servicio de mantenimiento de noviembre',
    ...change,
  };
}

describe('POST /invoices: a UBL XML', () => {
  it('stores the factura PENDING with certStatus PENDING, read from its XML, once', async () => {
    const token = await supplierToken();
    const response = await submitXml(token, corpus('factura-ubl21-credito.xml'));
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      id: 'F001-458',
      numericId: '458',
      type: 'FACTURA',
      status: 'PENDING',
      certStatus: 'PENDING',
      supplierId: SUPPLIERS[0]!.taxId,
      client: CLIENTS[0]!.taxId,
      clientName: CLIENTS[0]!.name,
      currency: 'PEN',
      amount: 11800,
      taxAmount: 1800,
      issuedAt: '2025-03-14',
      pdfUrl: null,
    });
    expect(response.body.xmlUrl).toMatch(/^uploads\//);
    const again = await submitXml(token, corpus('factura-ubl21-credito.xml'));
    expectError(again, 409, 'ERROR_INVOICE_ALREADY_EXISTS');
  });

  it("refuses another supplier's document, and a document whose customer is not of the group", async () => {
    const token = await idTokenOf(otherSupplier.username, otherSupplier.password);
    expectError(await submitXml(token, corpus('factura-ubl21-credito.xml')), 403, 'ERROR_INVOICE_SUPPLIER_NOT_CALLER');
    // The boleta is this supplier's own, sold to a consumer identified by DNI.
    expectError(await submitXml(token, corpus('boleta-ubl21.xml')), 400, 'ERROR_CLIENT_NOT_FOUND');
  });

  it('refuses hostile and broken files with a clear error', async () => {
    const token = await supplierToken();
    expectError(await submitXml(token, corpus('billion-laughs.xml')), 400, 'ERROR_UPLOAD_CONTENT_MISMATCH');
    expectError(await submitXml(token, corpus('truncated.xml')), 400, 'ERROR_XML_MALFORMED');
    const refused = await submitXml(token, corpus('pdf-renamed.xml'));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toEqual(expect.any(String));
  });
});

describe('POST /invoices/without-xml: the form and its PDF', () => {
  it('asks for the PDF with the text of spec §5', async () => {
    const token = await adminToken();
    for (const body of [form('1'), { ...form('1'), pdfUrl: '' }]) {
      const response = await call(routes.createInvoiceWithoutXml, { token, body });
      expectError(response, 400, 'ERROR_INVOICE_PDF_REQUIRED');
      expect(response.body.message).toBe('Para crear un comprobante debe adjuntar un archivo PDF.');
    }
  });

  it('stores the invoice with its PDF and answers what the success message needs', async () => {
    const token = await adminToken();
    const pdfUrl = await uploadAs(token, 'INVOICE_PDF', MINIMAL_PDF, 'application/pdf', 'factura noviembre.pdf');
    const response = await call<Invoice>(routes.createInvoiceWithoutXml, {
      token,
      body: { ...form('0000321'), pdfUrl },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      id: 'F002-321',
      status: 'PENDING',
      certStatus: 'PENDING',
      pdfUrl,
      xmlUrl: null,
    });
    expect(pdfUrl).not.toContain('noviembre');
  });

  it('refuses a customer outside the group, a bad RUC and a bad series', async () => {
    const token = await adminToken();
    // Each refusal deletes its PDF (a refused upload leaves the bucket): every attempt brings its own.
    const pdfUrl = () => uploadAs(token, 'INVOICE_PDF', MINIMAL_PDF, 'application/pdf', 'f.pdf');
    expectError(
      await call(routes.createInvoiceWithoutXml, {
        token,
        body: { ...form('2'), pdfUrl: await pdfUrl(), clientTaxId: withCheckDigit('2099999999') },
      }),
      400,
      'ERROR_CLIENT_NOT_FOUND',
    );
    expectError(
      await call(routes.createInvoiceWithoutXml, {
        token,
        body: { ...form('3'), pdfUrl: await pdfUrl(), supplierTaxId: '20700000050' },
      }),
      400,
      'ERROR_INVALID_RUC',
    );
    expectError(
      await call(routes.createInvoiceWithoutXml, {
        token,
        body: { ...form('4'), pdfUrl: await pdfUrl(), prefixId: 'X002' },
      }),
      400,
      'ERROR_INVOICE_ID_WITH_INVALID_FORMAT',
    );
  });

  it('lets the supplier send again a document rejected with retry allowed, and not a definitive rejection', async () => {
    const admin = await adminToken();
    const manager = await managerToken();
    const supplierId = withCheckDigit('2070000005');
    for (const [numericId, retry, expected] of [
      ['900', 'true', 201],
      ['901', 'false', 409],
    ] as const) {
      const pdfUrl = await uploadAs(admin, 'INVOICE_PDF', MINIMAL_PDF, 'application/pdf', 'f.pdf');
      const first = await call(routes.createInvoiceWithoutXml, { token: admin, body: { ...form(numericId), pdfUrl } });
      expect(first.status).toBe(201);
      const path = { supplierId, invoiceType: 'FACTURA', invoiceId: `F002-${numericId}` };
      const rejected = await call<InvoiceDetail>(routes.disapproveInvoice, {
        token: manager,
        path,
        query: { noRejection: retry },
        body: { reason: 'Monto errado' },
      });
      expect(rejected.body.status).toBe('REJECTED');
      const again = await call(routes.createInvoiceWithoutXml, { token: admin, body: { ...form(numericId), pdfUrl } });
      expect(again.status).toBe(expected);
      if (expected === 201) {
        const stored = await table().get(keys.invoice(supplierId, 'FACTURA', `F002-${numericId}`));
        expect(stored).toMatchObject({ status: 'PENDING', disapprovedWithoutRejection: false });
      } else {
        expectError(again, 409, 'ERROR_INVOICE_ALREADY_EXISTS');
      }
    }
  });
});
