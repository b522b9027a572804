import { describe, expect, it } from 'vitest';
import {
  computePayment,
  keys,
  routes,
  withCheckDigit,
  type Invoice,
  type InvoiceDetail,
  type InvoiceSummary,
} from '@portal/shared';
import { SapRejectedError, makeSapClient, type SupplierInvoicePosting } from '../../functions/src/adapters/sap.js';
import { withholdingsOf } from '../../functions/src/use-cases/miro/supplier-invoice-posting.js';
import { CLIENTS, SUPPLIERS, stageCompanies } from '../support/tenant.js';
import { LOCAL_SAP_CREDENTIALS, localCompanyCodes } from '../../local/simulators/sap.js';
import { call } from '../support/api.js';
import { table } from '../support/fixtures.js';
import { followToPaid, freshCorrelative, managerToken, supplierToken, ublFactura } from '../support/invoices.js';
import { stage } from '../support/stage.js';
import { MINIMAL_PDF, uploadAs } from '../support/uploads.js';
import { until } from '../support/until.js';
import { stageSap } from '../support/sap.js';

/**
 * Payment terms, due dates, detracción, retención and remittance (docs/ap-payment.md) on the local stage. The
 * invoices of these tests are the demo supplier's at CLIENTS[0], which pays on the 15th and the 30th: the company
 * other files add invoices to. CLIENTS[1], the agente de retención, is read by the filter and dashboard files as
 * the seed left it, so its retention is checked at the SAP simulator with postings of no portal invoice.
 */
const PAYS_ON_15_AND_30 = CLIENTS[0]!;
const RETENTION_AGENT = CLIENTS[1]!;
const DEMO_SUPPLIER = SUPPLIERS[0]!;

/** An invoice the demo supplier types in 'Nuevo comprobante' for CLIENTS[0], with its forma de pago. */
async function typedInvoice(token: string, change: Record<string, unknown>) {
  const pdfUrl = await uploadAs(token, 'INVOICE_PDF', MINIMAL_PDF, 'application/pdf', 'factura.pdf');
  return call<Invoice>(routes.createInvoiceWithoutXml, {
    token,
    body: {
      prefixId: 'F002',
      numericId: freshCorrelative(),
      type: 'FACTURA',
      clientTaxId: PAYS_ON_15_AND_30.taxId,
      supplierTaxId: DEMO_SUPPLIER.taxId,
      currency: 'PEN',
      amount: 1180,
      taxAmount: 180,
      issueDate: '2026-11-02',
      pdfUrl,
      ...change,
    },
  });
}

const pathOf = (invoice: Pick<Invoice, 'supplierId' | 'type' | 'id'>) => ({
  supplierId: invoice.supplierId,
  invoiceType: invoice.type,
  invoiceId: invoice.id,
});

describe('the payment of an invoice, as intake stores it', () => {
  it('keeps the cuotas and the 12 % detracción of the XML, the net to pay, and the next run day as payment date', async () => {
    const token = await supplierToken();
    const correlative = freshCorrelative();
    const { bytes, invoiceId } = ublFactura(correlative);
    const url = await uploadAs(token, 'INVOICE_XML', bytes, 'text/xml', 'factura.xml');

    const created = await call<Invoice>(routes.createInvoiceFromXml, { token, body: { url } });

    expect(created.status).toBe(201);
    const expected = {
      method: 'CREDITO',
      installments: [
        { number: 1, amount: 5192, dueDate: '2025-04-13' },
        { number: 2, amount: 5192, dueDate: '2025-05-13' },
      ],
      declaredPendingAmount: 10384,
      detraction: {
        operationType: '1001',
        code: '037',
        percent: 12,
        amount: 1416,
        currency: 'PEN',
        amountInDocumentCurrency: 1416,
        account: '00-068-123456',
      },
      igvRetention: null,
      netToPay: 10384,
      warnings: [],
      dueDate: '2025-05-13',
      // CLIENTS[0] pays on the 15th and the 30th.
      expectedPaymentDate: '2025-05-15',
      movedToPaymentRun: true,
    };
    expect(created.body.payment).toEqual(expected);
    const detail = await call<InvoiceDetail>(routes.getInvoice, {
      token,
      path: pathOf({ supplierId: DEMO_SUPPLIER.taxId, type: 'FACTURA', id: invoiceId }),
    });
    expect(detail.body.payment).toEqual(expected);
    // As stored, not only as answered.
    const stored = await table().get(keys.invoice(DEMO_SUPPLIER.taxId, 'FACTURA', invoiceId));
    expect(stored?.payment).toEqual(expected);
  });

  it('takes the cuotas and detracción of the form, flags cuotas that do not add up, and refuses what SUNAT would not', async () => {
    const token = await supplierToken();

    const flagged = await typedInvoice(token, {
      paymentTerms: { method: 'CREDITO', installments: [{ amount: 1180, dueDate: '2026-12-20' }] },
      detraction: { code: '037', percent: 12, account: '00-068-145617' },
    });
    const noCuotas = await typedInvoice(token, { paymentTerms: { method: 'CREDITO', installments: [] } });
    const unknownCode = await typedInvoice(token, { detraction: { code: '999', percent: 12 } });

    expect(flagged.status).toBe(201);
    expect(flagged.body.payment).toMatchObject({
      method: 'CREDITO',
      detraction: { code: '037', percent: 12, amount: 141.6, account: '00-068-145617' },
      netToPay: 1038.4,
      warnings: [
        'La suma de las cuotas (S/ 1,180.00) no coincide con el neto a pagar (S/ 1,038.40): diferencia de S/ 141.60.',
      ],
      dueDate: '2026-12-20',
      expectedPaymentDate: '2026-12-30',
    });
    expect(noCuotas.status).toBe(400);
    expect(noCuotas.body).toMatchObject({
      message: 'La forma de pago no es válida: una venta al crédito debe indicar al menos una cuota',
      errors: [{ code: 'ERROR_PAYMENT_TERMS_INVALID' }],
    });
    expect(unknownCode.status).toBe(400);
    expect(unknownCode.body).toMatchObject({ errors: [{ code: 'ERROR_DETRACTION_INVALID' }] });
  });
});

describe('"vence entre" on the invoices list', () => {
  // A year no other invoice falls due in: the listing holds only this test's invoices.
  const year = 2200 + (Date.now() % 700);
  const due = (month: number, day: number) =>
    `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

  async function walk(token: string, query: Record<string, string | number>) {
    const items: InvoiceSummary[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await call(routes.listInvoices, { token, query: { ...query, cursor } });
      expect(page.status).toBe(200);
      items.push(...page.body.items);
      cursor = page.body.nextCursor ?? undefined;
      pages += 1;
    } while (cursor && pages < 50);
    expect(cursor).toBeUndefined();
    return items;
  }

  it('lists what falls due in the range, soonest first, page by page, for the company and the supplier', async () => {
    const token = await supplierToken();
    // Due on the 3rd, 20th and 16th: paid on the 15th, 30th and 30th (CLIENTS[0]'s run days).
    const created = [];
    for (const dueDate of [due(3, 3), due(3, 20), due(3, 16), due(5, 1)]) {
      const response = await typedInvoice(token, {
        paymentTerms: { method: 'CREDITO', installments: [{ amount: 1180, dueDate }] },
      });
      expect(response.status).toBe(201);
      created.push(response.body);
    }
    const [first, second, third, later] = created as [Invoice, Invoice, Invoice, Invoice];
    const range = { dueFrom: due(3, 1), dueTo: due(3, 31) };

    const forCompany = await walk(await managerToken(), { client: PAYS_ON_15_AND_30.taxId, ...range, limit: 2 });
    const forSupplier = await walk(token, { ...range, limit: 1 });
    const counted = await call(routes.countInvoices, { token: await managerToken(), query: { ...range } });

    // Soonest payment first; two paid the same day in the order they were received.
    const expectedOrder = [first.id, second.id, third.id];
    expect(forCompany.map((invoice) => invoice.id)).toEqual(expectedOrder);
    expect(forCompany.map((invoice) => invoice.payment?.expectedPaymentDate)).toEqual([
      due(3, 15),
      due(3, 30),
      due(3, 30),
    ]);
    expect(forSupplier.map((invoice) => invoice.id)).toEqual(expectedOrder);
    expect(counted.body).toEqual({ count: 3, exact: true });
    expect(forCompany.some((invoice) => invoice.id === later.id)).toBe(false);

    // A rejected invoice is not paid: it leaves the listing.
    const rejected = await call(routes.disapproveInvoice, {
      token: await managerToken(),
      path: pathOf(second),
      query: { noRejection: 'false' },
      body: { reason: 'Cuota mal calculada.' },
    });
    expect(rejected.status).toBe(200);
    expect((await walk(token, { ...range, limit: 5 })).map((invoice) => invoice.id)).toEqual(
      expectedOrder.filter((id) => id !== second.id),
    );
  });

  it('refuses a range that ends before it starts, and a cursor of another range', async () => {
    const token = await supplierToken();
    const reversed = await call(routes.listInvoices, { token, query: { dueFrom: due(4, 2), dueTo: due(4, 1) } });
    // The demo supplier's seeded invoices fall due in 2026: more than one page of one.
    const page = await call(routes.listInvoices, {
      token,
      query: { dueFrom: '2020-01-01', dueTo: '2030-12-31', limit: 1 },
    });
    expect(page.body.nextCursor).toEqual(expect.any(String));
    const otherRange = await call(routes.listInvoices, {
      token,
      query: { dueFrom: '2020-01-02', dueTo: '2030-12-31', limit: 1, cursor: page.body.nextCursor },
    });

    expect(reversed.status).toBe(400);
    expect(reversed.body.errors[0]).toEqual({
      code: 'ERROR_INVALID_PARAMETER',
      parameters: { parameter: 'dueTo', reason: 'la fecha final de «vence entre» no puede ser anterior a la inicial' },
    });
    expect(otherRange.status).toBe(400);
    expect(otherRange.body.errors[0].code).toBe('ERROR_INVALID_CURSOR');
  });
});

describe('SAP: the withholding of the MIRO and the remittance of the payment', () => {
  it('posts the detracción once with the MIRO, and shows the supplier the payment document after the sync', async () => {
    const token = await supplierToken();
    const { bytes, invoiceId, net } = ublFactura(freshCorrelative());
    const url = await uploadAs(token, 'INVOICE_XML', bytes, 'text/xml', 'factura.xml');
    expect((await call(routes.createInvoiceFromXml, { token, body: { url } })).status).toBe(201);

    await followToPaid(invoiceId, net, {
      scheduledAt: '2026-12-15',
      paidAt: '2026-12-16',
      paymentDocument: '2000123456',
      paymentMethod: 'C',
    });

    const postings = await stageSap<{
      byInvoice: Record<string, number>;
      postings: { invoiceId: string; withholdings: unknown }[];
    }>(`/__control/postings?supplierId=${DEMO_SUPPLIER.taxId}`);
    expect(postings.byInvoice[`${DEMO_SUPPLIER.taxId}/${invoiceId}`]).toBe(1);
    expect(postings.postings.find((posting) => posting.invoiceId === invoiceId)?.withholdings).toEqual([
      { kind: 'DETRACTION', baseAmount: 11800, amount: 1416 },
    ]);
    const detail = await call<InvoiceDetail>(routes.getInvoice, {
      token,
      path: pathOf({ supplierId: DEMO_SUPPLIER.taxId, type: 'FACTURA', id: invoiceId }),
    });
    expect(detail.body.remittance).toEqual({
      document: '2000123456',
      fiscalYear: '2026',
      paidAt: '2026-12-16',
      method: 'C',
      methodName: 'Cheque',
      amount: null,
      currency: null,
    });
    expect(detail.body.statusHistory.at(-1)).toMatchObject({
      status: 'PAID',
      additionalMessage: 'Documento de pago 2000123456 (Cheque)',
    });
    const feed = await until(
      async () => {
        const items = await table().partition(keys.feed('SUPPLIER', DEMO_SUPPLIER.taxId));
        return items.map((item) => String(item.message)).find((text) => text.includes(`pagó la factura ${invoiceId}`));
      },
      { message: 'the payment notice' },
    );
    expect(feed).toBe(
      `${PAYS_ON_15_AND_30.name} pagó la factura ${invoiceId} el 16/12/26 (documento de pago 2000123456, Cheque).`,
    );
  });

  describe('the retención del IGV of an agent company, at the SAP simulator', () => {
    const client = makeSapClient({
      baseUrl: stage().endpoints.sap,
      credentials: async () => LOCAL_SAP_CREDENTIALS,
      companyCodes: localCompanyCodes(stageCompanies()),
      baseDelayMs: 1,
    });
    const supplier = {
      taxId: withCheckDigit(`2071${String(Date.now() % 1_000_000).padStart(6, '0')}`),
      name: 'Proveedor Retenido S.A.C.',
    };

    /** A posting of an invoice at the agent company, its purchase order and HES registered with SAP. */
    async function posting(
      supplierId: string,
      total: number,
    ): Promise<Omit<SupplierInvoicePosting, 'withholdings'> & { invoice: Invoice }> {
      const order = `46${Date.now() % 100_000_000}`;
      const hes = `1001${Date.now() % 1_000_000}`;
      const net = Math.round((total / 1.18) * 100) / 100;
      const tax = Math.round((total - net) * 100) / 100;
      await stageSap('/__control/documents', {
        purchaseOrders: [{ id: order, issuerTaxId: supplierId, acquirerTaxId: RETENTION_AGENT.taxId, currency: 'PEN' }],
        conformityDocuments: [
          {
            kind: 'SERVICE_SHEET',
            documentId: hes,
            purchaseOrder: order,
            fiscalYear: '2026',
            issuerTaxId: supplierId,
            acquirerTaxId: RETENTION_AGENT.taxId,
            amount: net,
            currency: 'PEN',
          },
        ],
      });
      const supplierInvoiceId = `F003-${freshCorrelative()}`;
      const invoice = {
        id: supplierInvoiceId,
        type: 'FACTURA',
        amount: total,
        taxAmount: tax,
        payment: computePayment({
          type: 'FACTURA',
          currency: 'PEN',
          amount: total,
          taxAmount: tax,
          method: 'CONTADO',
          installments: [],
          declaredPendingAmount: null,
          dueDates: [],
          detraction: null,
          receivedAt: new Date().toISOString(),
          company: RETENTION_AGENT,
          supplierExemption: SUPPLIERS.find((each) => each.taxId === supplierId)?.igvRetentionExemption ?? null,
        }),
      } as Invoice;
      return {
        invoice,
        idempotencyKey: `MIRO#${supplierId}#FACTURA#${supplierInvoiceId}`,
        client: RETENTION_AGENT.taxId,
        supplierId,
        supplierInvoiceId,
        documentDate: '2026-11-02',
        postingDate: '2026-11-20',
        currency: 'PEN',
        grossAmount: total,
        taxAmount: tax,
        creditMemo: false,
        items: [{ purchaseOrder: order, purchaseOrderItem: '10', amount: net, serviceEntrySheet: hes }],
      };
    }

    it('posts the 3 % the portal computed, once, however often the request is repeated', async () => {
      const { invoice, ...base } = await posting(supplier.taxId, 1180);
      const withholdings = withholdingsOf(invoice);
      expect(withholdings).toEqual([{ kind: 'IGV_RETENTION', baseAmount: 1180, amount: 35.4 }]);

      const first = await client.postSupplierInvoice({ ...base, withholdings });
      const again = await client.postSupplierInvoice({ ...base, withholdings });

      expect(again).toEqual(first);
      const postings = await stageSap<{
        byInvoice: Record<string, number>;
        postings: { invoiceId: string; withholdings: unknown }[];
      }>(`/__control/postings?supplierId=${supplier.taxId}`);
      expect(postings.byInvoice[`${supplier.taxId}/${base.supplierInvoiceId}`]).toBe(1);
      expect(postings.postings.find((each) => each.invoiceId === base.supplierInvoiceId)?.withholdings).toEqual(
        withholdings,
      );
    });

    it('refuses a MIRO without the retención, with another amount, or retaining an exempt supplier', async () => {
      const missing = await posting(supplier.taxId, 1180);
      const wrong = await posting(supplier.taxId, 1180);
      const exempt = await posting(SUPPLIERS[2]!.taxId, 1180);
      const small = await posting(supplier.taxId, 700);

      const refusal = (promise: Promise<unknown>) =>
        promise.then(
          () => null,
          (error: unknown) => (error instanceof SapRejectedError ? error.sapMessage : String(error)),
        );

      expect(await refusal(client.postSupplierInvoice({ ...missing, withholdings: [] }))).toBe(
        `Falta la retención del IGV: el acreedor ${supplier.taxId} está sujeto a retención en esta sociedad.`,
      );
      expect(
        await refusal(
          client.postSupplierInvoice({
            ...wrong,
            withholdings: [{ kind: 'IGV_RETENTION', baseAmount: 1180, amount: 35.41 }],
          }),
        ),
      ).toBe('La retención del IGV debe ser 35.40 (3 % de 1180.00).');
      expect(withholdingsOf(exempt.invoice)).toEqual([]);
      expect(
        await refusal(
          client.postSupplierInvoice({
            ...exempt,
            withholdings: [{ kind: 'IGV_RETENTION', baseAmount: 1180, amount: 35.4 }],
          }),
        ),
      ).toBe('La retención del IGV no corresponde a este acreedor, sociedad o importe.');
      // At S/ 700.00 nothing is retained, and SAP takes the MIRO without it.
      expect(withholdingsOf(small.invoice)).toEqual([]);
      expect(await refusal(client.postSupplierInvoice({ ...small, withholdings: [] }))).toBeNull();
    });
  });
});
