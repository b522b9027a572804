import { parseCdr } from '../ubl/cdr.js';
import { makeFakeReceivedFiles } from './received-files.fake.js';
import { describe, expect, it } from 'vitest';
import { CreateInvoiceWithoutXmlBody, withCheckDigit, type Client, type Invoice } from '@portal/shared';
import { makeFakeNoteLinks } from '../repositories/note-links.fake.js';
import { intakeCalls } from './intake/intake-calls.fake.js';
import { type IncomingDocument } from './intake/intake-deps.js';
import { CLIENT, SUPPLIER, incomingDocumentFixture, supplierCaller } from './intake/intake-fixtures.fake.js';

// What intake keeps of a document's payment (docs/ap-payment.md): the forma de pago and cuotas, the detracción,
// the retención of an agent company, the net to pay and the expected payment date; and what the form refuses.

const PAYS_ON_15_AND_30: Client = { ...CLIENT, paymentRunDays: [15, 30] };
const RETENTION_AGENT: Client = {
  taxId: withCheckDigit('2060341580'),
  name: 'Minera Pacífico Sur',
  address: 'Lima',
  logo: null,
  system_name: 'MPS',
  igvRetentionAgent: true,
};
const supplier = supplierCaller;

/** The demo's two cuotas of S/ 519.20, as the invoice keeps them. */
const TWO_CUOTAS = [
  { number: 1, amount: 519.2, dueDate: '2026-12-10' },
  { number: 2, amount: 519.2, dueDate: '2027-01-09' },
];
/** The demo's detracción: service 037 at 12 % of S/ 1,180.00, deposited in soles. */
const DETRACTION_12 = {
  operationType: '1001',
  code: '037',
  percent: 12,
  amount: 141.6,
  currency: 'PEN',
  account: '00-068-1',
} as const;

/** The factura a crédito of the demo: S/ 1,180.00, 12 % detracción (S/ 141.60), two cuotas of S/ 519.20. */
const creditWithDetraction = (change: Partial<IncomingDocument> = {}): IncomingDocument =>
  incomingDocumentFixture({
    taxAmount: 180,
    amount: 1180,
    purchaseOrders: [],
    notes: null,
    paymentTerms: {
      method: 'CREDITO',
      installments: TWO_CUOTAS,
      declaredPendingAmount: 1038.4,
    },
    dueDates: ['2026-12-10', '2027-01-09'],
    detraction: DETRACTION_12,
    ...change,
  });

function setup(document: IncomingDocument = creditWithDetraction(), exemption: string | null = null) {
  const stored: Invoice[] = [];
  const receivedFiles = makeFakeReceivedFiles();
  const intake = intakeCalls({
    storeReceived: receivedFiles.storeReceived,
    parseCdr: (bytes) => parseCdr(bytes),
    verifyUpload: async (key) => ({ key, bytes: new Uint8Array() }),
    discardUpload: async () => undefined,
    parseDocument: async () => document,
    checkInvoiceCode: () => true,
    clients: { get: async (taxId) => [PAYS_ON_15_AND_30, RETENTION_AGENT].find((c) => c.taxId === taxId) ?? null },
    profiles: {
      getMany: async (rucs) =>
        new Map(rucs.map((taxId) => [taxId, { taxId, name: 'Servicios', igvRetentionExemption: exemption as never }])),
    },
    store: { existing: async () => null, create: async (invoice: Invoice) => void stored.push(invoice) } as never,
    outgoing: { deliver: async () => undefined },
    noteLinks: makeFakeNoteLinks(),
    clock: () => new Date('2026-11-20T15:00:00.000Z'),
  });
  return { intake, stored };
}

/** A form body as the route's schema reads it (defaults applied). */
const form = (change: Record<string, unknown> = {}) =>
  CreateInvoiceWithoutXmlBody.parse({
    prefixId: 'F001',
    numericId: '200',
    type: 'FACTURA',
    clientTaxId: PAYS_ON_15_AND_30.taxId,
    supplierTaxId: SUPPLIER,
    currency: 'PEN',
    amount: 1180,
    taxAmount: 180,
    issueDate: '2026-11-10',
    pdfUrl: 'uploads/x.pdf',
    ...change,
  });

describe('intake: the payment of an XML document', () => {
  it('keeps the forma de pago, the cuotas and the detracción, and expects payment on the next run day', async () => {
    const { intake, stored } = setup();

    const invoice = await intake.fromXml(supplier, { url: 'uploads/f.xml' });

    expect(invoice.payment).toEqual({
      method: 'CREDITO',
      installments: TWO_CUOTAS,
      declaredPendingAmount: 1038.4,
      detraction: { ...DETRACTION_12, amountInDocumentCurrency: 141.6 },
      igvRetention: null,
      netToPay: 1038.4,
      warnings: [],
      dueDate: '2027-01-09',
      // The company pays on the 15th and the 30th.
      expectedPaymentDate: '2027-01-15',
      movedToPaymentRun: true,
    });
    expect(stored[0]!.payment).toEqual(invoice.payment);
  });

  it('flags cuotas that do not add up to the net to pay, and still registers the document', async () => {
    const document = creditWithDetraction({
      paymentTerms: {
        method: 'CREDITO',
        installments: [{ number: 1, amount: 1180, dueDate: '2026-12-10' }],
        declaredPendingAmount: null,
      },
    });
    const { intake, stored } = setup(document);

    const invoice = await intake.fromXml(supplier, { url: 'uploads/f.xml' });

    expect(invoice.payment?.warnings).toEqual([
      'La suma de las cuotas (S/ 1,180.00) no coincide con el neto a pagar (S/ 1,038.40): diferencia de S/ 141.60.',
    ]);
    expect(stored).toHaveLength(1);
  });

  it('withholds 3 % at an agent company, unless the supplier is exempt', async () => {
    const atAgent = creditWithDetraction({
      customerTaxId: RETENTION_AGENT.taxId,
      detraction: null,
      paymentTerms: {
        method: 'CREDITO',
        installments: [{ number: 1, amount: 1144.6, dueDate: '2026-12-10' }],
        declaredPendingAmount: 1144.6,
      },
    });

    const retained = await setup(atAgent).intake.fromXml(supplier, { url: 'uploads/f.xml' });
    const exempt = await setup(atAgent, 'BUEN_CONTRIBUYENTE').intake.fromXml(supplier, { url: 'uploads/f.xml' });

    expect(retained.payment).toMatchObject({
      igvRetention: { applies: true, percent: 3, amount: 35.4, reason: null },
      netToPay: 1144.6,
      warnings: [],
    });
    expect(exempt.payment).toMatchObject({
      igvRetention: { applies: false, amount: 0, reason: 'Proveedor exceptuado: buen contribuyente.' },
      netToPay: 1180,
    });
  });
});

describe('intake: the forma de pago and detracción typed without XML', () => {
  it('keeps the cuotas in order and computes the detracción from the total', async () => {
    const { intake } = setup();

    const invoice = await intake.withoutXml(
      supplier,
      form({
        paymentTerms: {
          method: 'CREDITO',
          installments: [
            { amount: 519.2, dueDate: '2026-12-10' },
            { amount: 519.2, dueDate: '2027-01-09' },
          ],
        },
        detraction: { code: '037', percent: 12, account: '00-068-1' },
      }),
    );

    expect(invoice.payment).toMatchObject({
      method: 'CREDITO',
      installments: TWO_CUOTAS,
      detraction: { code: '037', percent: 12, amount: 141.6, currency: 'PEN', account: '00-068-1' },
      netToPay: 1038.4,
      warnings: [],
      expectedPaymentDate: '2027-01-15',
    });
  });

  it('is al contado when the form says nothing, due at reception', async () => {
    const invoice = await setup().intake.withoutXml(supplier, form());

    expect(invoice.payment).toMatchObject({
      method: 'CONTADO',
      dueDate: '2026-11-20',
      expectedPaymentDate: '2026-11-30',
    });
  });

  it.each([
    [
      { paymentTerms: { method: 'CREDITO', installments: [] } },
      'ERROR_PAYMENT_TERMS_INVALID',
      'La forma de pago no es válida: una venta al crédito debe indicar al menos una cuota',
    ],
    [
      { paymentTerms: { method: 'CONTADO', installments: [{ amount: 1180, dueDate: '2026-12-10' }] } },
      'ERROR_PAYMENT_TERMS_INVALID',
      'La forma de pago no es válida: una venta al contado no tiene cuotas',
    ],
    [
      { paymentTerms: { method: 'CREDITO', installments: [{ amount: 1180, dueDate: '2026-11-10' }] } },
      'ERROR_PAYMENT_TERMS_INVALID',
      'La forma de pago no es válida: la cuota 1 vence el 10/11/2026, y debe vencer después de la fecha de emisión (10/11/2026)',
    ],
    [
      { detraction: { code: '999', percent: 12 } },
      'ERROR_DETRACTION_INVALID',
      'La detracción no es válida: el código 999 no figura en el catálogo 54 de SUNAT',
    ],
    [
      { type: 'BOLETA', detraction: { code: '037', percent: 12 } },
      'ERROR_DETRACTION_INVALID',
      'La detracción no es válida: solo una factura o una nota de débito lleva detracción',
    ],
    [
      { detraction: { code: '037', percent: 12, amountPen: 142 } },
      'ERROR_DETRACTION_INVALID',
      'La detracción no es válida: el depósito es el 12 % del importe total, S/ 141.60, no S/ 142.00',
    ],
    [
      { currency: 'USD', detraction: { code: '037', percent: 12 } },
      'ERROR_DETRACTION_INVALID',
      'La detracción no es válida: en un comprobante en dólares indique el monto del depósito en soles',
    ],
  ])('refuses a forma de pago or a detracción that SUNAT would not accept: %j → %s', async (change, code, message) => {
    const { intake, stored } = setup();

    await expect(intake.withoutXml(supplier, form(change))).rejects.toMatchObject({ statusCode: 400, code, message });
    expect(stored).toEqual([]);
  });

  it('keeps the deposit in soles of a document in dollars, and subtracts its percentage in dollars', async () => {
    const invoice = await setup().intake.withoutXml(
      supplier,
      form({ currency: 'USD', detraction: { code: '037', percent: 12, amountPen: 531 } }),
    );

    expect(invoice.payment?.detraction).toMatchObject({
      amount: 531,
      currency: 'PEN',
      amountInDocumentCurrency: 141.6,
    });
    expect(invoice.payment?.netToPay).toBe(1038.4);
  });
});
