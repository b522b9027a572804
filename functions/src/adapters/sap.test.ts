import { describe, expect, it } from 'vitest';
import { SapRejectedError, SapUnavailableError, fromOdataDate, makeSapClient, odataDate } from './sap.js';

const POSTING = {
  idempotencyKey: 'MIRO#20700001011#FACTURA#F001-1',
  client: '20100070970',
  supplierId: '20700001011',
  supplierInvoiceId: 'F001-1',
  documentDate: '2026-10-15',
  postingDate: '2026-11-02',
  currency: 'PEN',
  grossAmount: 1180,
  taxAmount: 180,
  creditMemo: false,
  items: [
    { purchaseOrder: '4500000001', purchaseOrderItem: '10', amount: 600, serviceEntrySheet: '1000000001' },
    {
      purchaseOrder: '4500000001',
      purchaseOrderItem: '10',
      amount: 400,
      referenceDocument: '5000000001',
      referenceDocumentFiscalYear: '2026',
    },
  ],
};

type Call = { url: string; method: string; headers: Record<string, string>; body: string | undefined };

/** A scripted S/4HANA: each answer in turn, recording what the adapter sent. */
function scripted(answers: (() => Response)[]) {
  const calls: Call[] = [];
  const fetchFake = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({
      url: String(url),
      method: init?.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: init?.body as string | undefined,
    });
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next();
  }) as typeof fetch;
  return { calls, fetch: fetchFake };
}

const csrf = (token: string) => () =>
  new Response('{}', {
    status: 200,
    headers: { 'x-csrf-token': token, 'set-cookie': `SAP_SESSIONID=${token}; path=/` },
  });
const posted = () =>
  new Response(JSON.stringify({ d: { SupplierInvoice: '5105600001', FiscalYear: '2026' } }), { status: 201 });

function client(answers: (() => Response)[]) {
  const sap = scripted(answers);
  return {
    calls: sap.calls,
    port: makeSapClient({
      baseUrl: 'https://s4.example.com/',
      credentials: async () => ({ type: 'basic', username: 'PORTAL', password: 'secreto' }),
      companyCodes: { '20100070970': '1000' },
      fetch: sap.fetch,
      sleep: async () => undefined,
    }),
  };
}

describe('SAP supplier-invoice adapter', () => {
  it('fetches a CSRF token with the session cookie, then posts the MIRO deep insert with the idempotency key', async () => {
    const { calls, port } = client([csrf('t1'), posted]);
    expect(await port.postSupplierInvoice(POSTING)).toEqual({ number: '5105600001', fiscalYear: '2026' });
    expect(calls[0]).toMatchObject({ method: 'GET', headers: { 'x-csrf-token': 'Fetch' } });
    expect(calls[1]!.url).toBe(
      'https://s4.example.com/sap/opu/odata/sap/API_SUPPLIERINVOICE_PROCESS_SRV/A_SupplierInvoice',
    );
    expect(calls[1]!.headers).toMatchObject({
      'x-csrf-token': 't1',
      cookie: 'SAP_SESSIONID=t1',
      'repeatability-request-id': POSTING.idempotencyKey,
      authorization: `Basic ${Buffer.from('PORTAL:secreto').toString('base64')}`,
    });
    expect(JSON.parse(calls[1]!.body!)).toMatchObject({
      CompanyCode: '1000',
      DocumentDate: odataDate('2026-10-15'),
      PostingDate: odataDate('2026-11-02'),
      InvoicingParty: POSTING.supplierId,
      SupplierInvoiceIDByInvcgParty: 'F001-1',
      DocumentCurrency: 'PEN',
      InvoiceGrossAmount: '1180.00',
      to_SuplrInvcItemPurOrdRef: {
        results: [
          { PurchaseOrder: '4500000001', PurchaseOrderItem: '10', ServiceEntrySheet: '1000000001' },
          { ReferenceDocument: '5000000001', ReferenceDocumentFiscalYear: '2026', SupplierInvoiceItemAmount: '400.00' },
        ],
      },
    });
  });

  it('posts a credit note as a credit memo: the credit-memo flag, the original it credits and price-only lines', async () => {
    const { calls, port } = client([csrf('t1'), posted]);
    await port.postSupplierInvoice({
      ...POSTING,
      supplierInvoiceId: 'FC01-7',
      grossAmount: 118,
      taxAmount: 18,
      creditMemo: true,
      adjusts: { number: '5105600001', fiscalYear: '2026' },
      items: [{ purchaseOrder: '4500000001', purchaseOrderItem: '10', amount: 100 }],
    });
    const body = JSON.parse(calls[1]!.body!);
    expect(body).toMatchObject({
      SupplierInvoiceIsCreditMemo: 'X',
      InvoiceReference: '5105600001',
      InvoiceReferenceFiscalYear: '2026',
      SupplierInvoiceIDByInvcgParty: 'FC01-7',
      InvoiceGrossAmount: '118.00',
      to_SuplrInvcItemPurOrdRef: {
        results: [{ PurchaseOrder: '4500000001', SupplierInvoiceItemAmount: '100.00', IsSubsequentDebitCredit: 'X' }],
      },
    });
    // The API has no IsInvoice: the header's credit-memo indicator says it.
    expect(body).not.toHaveProperty('IsInvoice');
    const invoice = JSON.parse(
      await (async () => {
        const again = client([csrf('t2'), posted]);
        await again.port.postSupplierInvoice(POSTING);
        return again.calls[1]!.body!;
      })(),
    );
    expect(invoice).toMatchObject({ SupplierInvoiceIsCreditMemo: '' });
    expect(invoice).not.toHaveProperty('InvoiceReference');
  });

  it('reads back a posting, telling an invoice, a credit memo and a debit note of one series-number apart', async () => {
    const rows = [
      { SupplierInvoice: '5105600010', FiscalYear: '2026', SupplierInvoiceIsCreditMemo: '', InvoiceReference: '' },
      {
        SupplierInvoice: '5105600011',
        FiscalYear: '2026',
        SupplierInvoiceIsCreditMemo: 'X',
        InvoiceReference: '5105600001',
      },
      {
        SupplierInvoice: '5105600012',
        FiscalYear: '2026',
        SupplierInvoiceIsCreditMemo: '',
        InvoiceReference: '5105600001',
      },
      {
        SupplierInvoice: '5105600013',
        FiscalYear: '2026',
        SupplierInvoiceIsCreditMemo: '',
        InvoiceReference: '',
        ReverseDocument: '5105600099',
      },
    ];
    const found = () => new Response(JSON.stringify({ d: { results: rows } }), { status: 200 });
    const reference = { client: '20100070970', supplierId: '20700001011', supplierInvoiceId: 'F001-5' };
    const { calls, port } = client([found, found, found]);
    expect(await port.findSupplierInvoice({ ...reference, creditMemo: false })).toEqual({
      number: '5105600010',
      fiscalYear: '2026',
    });
    expect(await port.findSupplierInvoice({ ...reference, creditMemo: true })).toEqual({
      number: '5105600011',
      fiscalYear: '2026',
    });
    expect(await port.findSupplierInvoice({ ...reference, creditMemo: false, adjustment: true })).toEqual({
      number: '5105600012',
      fiscalYear: '2026',
    });
    expect(decodeURIComponent(calls[0]!.url)).toContain(
      "$filter=CompanyCode eq '1000' and InvoicingParty eq '20700001011' and SupplierInvoiceIDByInvcgParty eq 'F001-5'",
    );
    expect(decodeURIComponent(calls[0]!.url)).toContain('SupplierInvoiceIsCreditMemo,InvoiceReference');
  });

  it('fetches a new token once when SAP refuses the CSRF token, and retries 5xx with backoff', async () => {
    const required = () => new Response('{}', { status: 403, headers: { 'x-csrf-token': 'Required' } });
    const { calls, port } = client([
      csrf('old'),
      required,
      csrf('new'),
      () => new Response('', { status: 503 }),
      posted,
    ]);
    expect((await port.postSupplierInvoice(POSTING)).number).toBe('5105600001');
    expect(calls.map((c) => c.headers['x-csrf-token'])).toEqual(['Fetch', 'old', 'Fetch', 'new', 'new']);
  });

  it('gives up on transport errors after its attempts, and reports a business refusal as rejected', async () => {
    const down = () => {
      throw new TypeError('fetch failed');
    };
    await expect(client([csrf('t'), down, down, down]).port.postSupplierInvoice(POSTING)).rejects.toBeInstanceOf(
      SapUnavailableError,
    );
    const refused = () =>
      new Response(JSON.stringify({ error: { message: { value: 'El pedido no existe' } } }), { status: 400 });
    await expect(client([csrf('t'), refused]).port.postSupplierInvoice(POSTING)).rejects.toThrow(SapRejectedError);
  });

  it('reads payment runs since a moment, following OData paging', async () => {
    const page = (results: unknown[], next: string | null) => () =>
      new Response(JSON.stringify({ d: { results, __next: next } }), { status: 200 });
    const row = {
      InvoicingParty: '20700001011',
      SupplierInvoiceIDByInvcgParty: 'F001-1',
      ScheduledPaymentDate: odataDate('2026-12-01'),
      PaymentDate: null,
      LastChangeDateTime: '/Date(1793577600000)/',
    };
    const { calls, port } = client([
      page([row], '/sap/opu/odata/sap/ZPORTAL_PAYMENT_RUN_SRV/PaymentRunItems?$skip=1'),
      page([{ ...row, PaymentDate: odataDate('2026-12-02') }], null),
    ]);
    const items = await port.paymentRunItemsSince('2026-11-01T00:00:00.000Z');
    expect(items).toEqual([
      expect.objectContaining({
        scheduledAt: '2026-12-01',
        paidAt: null,
        changedAt: fromOdataDate(row.LastChangeDateTime),
      }),
      expect.objectContaining({ paidAt: '2026-12-02' }),
    ]);
    expect(decodeURIComponent(calls[0]!.url)).toContain(
      "LastChangeDateTime ge datetimeoffset'2026-11-01T00:00:00.000Z'",
    );
  });
});
