import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { keys, routes, type Invoice, type InvoiceDetail } from '@portal/shared';
import { temporaryPasswordOf } from '../support/accounts.js';
import { adminToken, createSupplierAccount, freshEmail } from '../support/admin.js';
import { call, completeFirstSignIn, idTokenOf, type CallResult } from '../support/api.js';
import { table } from '../support/fixtures.js';
import { randomCorrelative } from '../support/invoices.js';
import { demoUser } from '../support/stage.js';
import { CLIENTS, SUPPLIERS, asTenant } from '../support/tenant.js';
import { uploadAs } from '../support/uploads.js';

/*
 * A recibo por honorarios electrónico typed with a factura's code, 01, as SEE-SOL may write it, sent by its issuer
 * through POST /invoices: registered as a recibo por honorarios, its retención de 4ta categoría in its breakdown and
 * the net to pay as its amount (docs/ap-documents.md, «Recibo por honorarios electrónico»).
 *
 * The corpus recibos are issued by the tenant's natural person, Quispe Mamani (SUPPLIERS[3], RUC 10), to Transportes
 * y Logística Inca (CLIENTS[2]), as documents.test.ts sends them. No demo account has that RUC and a supplier may send
 * only its own documents, so this file gives Quispe an account of its own, as an administrator would.
 */

const QUISPE = SUPPLIERS[3]!;
const TRANSPORTES_INCA = CLIENTS[2]!;
const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/ubl/recibo-honorarios-tipo-01.xml');

/** The corpus recibo typed 01 (S/ 2,500.00 of honorarios, 8 % withheld), with this tenant's parties and a number of its own. */
function reciboTyped01(): { bytes: Buffer; invoiceId: string } {
  const correlative = randomCorrelative();
  // ISO-8859-1, as SOL delivers it: read and sent in that encoding (tenantFixture reads a file as UTF-8).
  const xml = asTenant(readFileSync(FIXTURE, 'latin1')).replace(
    '<cbc:ID>E001-40</cbc:ID>',
    `<cbc:ID>E001-${correlative}</cbc:ID>`,
  );
  expect(xml).toMatch(/<cbc:InvoiceTypeCode[^>]*>01<\/cbc:InvoiceTypeCode>/);
  expect(xml).toContain(`<cbc:ID>E001-${correlative}</cbc:ID>`);
  expect(xml).toContain(`<cbc:CustomerAssignedAccountID>${QUISPE.taxId}</cbc:CustomerAssignedAccountID>`);
  expect(xml).toContain(`<cbc:CustomerAssignedAccountID>${TRANSPORTES_INCA.taxId}</cbc:CustomerAssignedAccountID>`);
  return { bytes: Buffer.from(xml, 'latin1'), invoiceId: `E001-${correlative}` };
}

/** What the web app does with a chosen XML: a ticket, the file to the bucket, then POST /invoices with its key. */
async function submitXml(token: string, bytes: Buffer): Promise<CallResult<any>> {
  const url = await uploadAs(token, 'INVOICE_XML', bytes, 'application/xml', 'recibo-por-honorarios.xml');
  return call(routes.createInvoiceFromXml, { token, body: { url } });
}

/** A supplier account for Quispe Mamani, created by the administrator and signed in for the first time. */
async function quispeSignedIn(): Promise<string> {
  const email = freshEmail();
  await createSupplierAccount({
    email,
    taxId: QUISPE.taxId,
    businessName: QUISPE.name,
    firstName: 'Rosa Elena',
    lastName: 'Quispe Mamani',
  });
  return await completeFirstSignIn(email, await temporaryPasswordOf(email), 'Honorarios#Clave2026x');
}

/** The retención de 4ta categoría of the recibo: 8 % of S/ 2,500.00, the net to pay S/ 2,300.00. */
const BREAKDOWN = {
  operationType: null,
  saleValue: 2500,
  taxes: { igv: 0, isc: 0, icbper: 0, other: 0 },
  incomeTaxWithholding: 200,
  allowances: [],
  charges: [],
  prepaidAmount: 0,
  prepayments: [],
  freeOfCharge: false,
  freeOfChargeValue: 0,
};

let quispeToken: string;

beforeAll(async () => {
  quispeToken = await quispeSignedIn();
});

describe('POST /invoices: a recibo por honorarios typed 01', () => {
  it('registers it as a recibo por honorarios with its retención, as its issuer and the staff read it', async () => {
    const { bytes, invoiceId } = reciboTyped01();

    const created = await submitXml(quispeToken, bytes);

    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const invoice = created.body as Invoice;
    expect(invoice).toMatchObject({
      id: invoiceId,
      type: 'RECIBO_POR_HONORARIOS',
      status: 'PENDING',
      supplierId: QUISPE.taxId,
      client: TRANSPORTES_INCA.taxId,
      currency: 'PEN',
      // The group pays the net the recibo states; the retención goes to SUNAT.
      amount: 2300,
      taxAmount: 0,
      breakdown: BREAKDOWN,
    });
    // Stored under its type: the same number as a factura of Quispe would be another document.
    expect(await table().get(keys.invoice(QUISPE.taxId, 'RECIBO_POR_HONORARIOS', invoiceId))).toMatchObject({
      type: 'RECIBO_POR_HONORARIOS',
      amount: 2300,
      breakdown: { incomeTaxWithholding: 200 },
    });
    expect(await table().get(keys.invoice(QUISPE.taxId, 'FACTURA', invoiceId))).toBeUndefined();

    const invoicePath = { supplierId: QUISPE.taxId, invoiceType: 'RECIBO_POR_HONORARIOS', invoiceId };
    for (const token of [quispeToken, await adminToken()]) {
      const detail = await call<InvoiceDetail>(routes.getInvoice, { token, path: invoicePath });
      expect(detail.status).toBe(200);
      expect(detail.body).toMatchObject({ type: 'RECIBO_POR_HONORARIOS', amount: 2300, breakdown: BREAKDOWN });
    }
  });

  it("refuses it from another supplier's account: a supplier sends only its own documents", async () => {
    const { bytes, invoiceId } = reciboTyped01();
    const other = demoUser('SUPPLIER');
    expect(other.taxId).not.toBe(QUISPE.taxId);

    const refused = await submitXml(await idTokenOf(other.username, other.password), bytes);

    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].code).toBe('ERROR_INVOICE_SUPPLIER_NOT_CALLER');
    expect(await table().get(keys.invoice(QUISPE.taxId, 'RECIBO_POR_HONORARIOS', invoiceId))).toBeUndefined();
  });
});
