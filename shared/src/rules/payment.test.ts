import { describe, expect, it } from 'vitest';
import { fromCents, percentOfCents, sumCents, toBasisPoints, toCents } from './money.js';
import { limaDayOf } from './acquirer-conformity.js';
import { notificationAbout, notificationText } from './notifications.js';
import {
  computePayment,
  detractionOf,
  igvRetentionOf,
  installmentNumber,
  netToPayLine,
  nextPaymentRunDay,
  paymentOutlook,
  type PaymentInput,
  type RetentionInput,
} from './payment.js';

describe('money in cents', () => {
  it('adds what floating point would not: 0.10 + 0.20 is 0.30', () => {
    expect(fromCents(sumCents([0.1, 0.2]))).toBe(0.3);
    expect(fromCents(sumCents([519.2, 519.2]))).toBe(1038.4);
  });

  it('rounds a percentage half up to the cent, as SUNAT rounds', () => {
    expect(percentOfCents(toCents(100.5), toBasisPoints(3))).toBe(302); // 3.015 → 3.02
    expect(percentOfCents(toCents(100.49), toBasisPoints(3))).toBe(301); // 3.0147 → 3.01
    expect(percentOfCents(toCents(700.01), toBasisPoints(3))).toBe(2100); // 21.0003 → 21.00
    expect(percentOfCents(toCents(1180), toBasisPoints(12))).toBe(14160);
    expect(percentOfCents(toCents(944), toBasisPoints(1.5))).toBe(1416);
  });

  it('stays exact at the largest amount the portal takes', () => {
    // 9,999,999,999.99 × 12 % = 1,199,999,999.9988, which rounds to 1,200,000,000.00; cents × 1200 passes 2^53.
    expect(percentOfCents(toCents(9_999_999_999.99), 1200)).toBe(120_000_000_000);
    expect(percentOfCents(toCents(9_999_999_999.99), 300)).toBe(30_000_000_000);
  });
});

describe('the next payment-run day', () => {
  it('keeps a due date that is a run day, and moves the others to the next one', () => {
    expect(nextPaymentRunDay('2026-03-15', [15, 30])).toBe('2026-03-15');
    expect(nextPaymentRunDay('2026-03-16', [15, 30])).toBe('2026-03-30');
    expect(nextPaymentRunDay('2026-03-31', [15, 30])).toBe('2026-04-15');
  });

  it('pays a run day the month lacks on its last day: the 30th of February is the 28th, or the 29th', () => {
    expect(nextPaymentRunDay('2026-02-16', [15, 30])).toBe('2026-02-28');
    expect(nextPaymentRunDay('2028-02-16', [15, 30])).toBe('2028-02-29');
    expect(nextPaymentRunDay('2026-04-10', [31])).toBe('2026-04-30');
    expect(nextPaymentRunDay('2026-04-30', [31])).toBe('2026-04-30');
    expect(nextPaymentRunDay('2026-05-01', [31])).toBe('2026-05-31');
  });

  it('crosses into the next month and the next year', () => {
    expect(nextPaymentRunDay('2026-01-31', [15, 30])).toBe('2026-02-15');
    expect(nextPaymentRunDay('2026-12-29', [5, 20])).toBe('2027-01-05');
    expect(nextPaymentRunDay('2026-12-31', [30])).toBe('2027-01-30');
  });

  it('leaves the due date alone when the company has no run days', () => {
    expect(nextPaymentRunDay('2026-03-16', null)).toBe('2026-03-16');
    expect(nextPaymentRunDay('2026-03-16', [])).toBe('2026-03-16');
  });
});

describe('retención del IGV (R.S. 037-2002/SUNAT)', () => {
  const base: RetentionInput = {
    companyIsAgent: true,
    supplierExemption: null,
    type: 'FACTURA',
    currency: 'PEN',
    amount: 1180,
    taxAmount: 180,
    subjectToDetraction: false,
  };

  it('withholds 3 % of the total with IGV when the company is an agent', () => {
    expect(igvRetentionOf(base)).toEqual({ applies: true, percent: 3, amount: 35.4, reason: null });
    expect(igvRetentionOf({ ...base, type: 'NOTA_DE_DEBITO', amount: 100.5 + 700, taxAmount: 122.11 })).toMatchObject({
      applies: true,
      amount: 24.02,
    });
  });

  it('says nothing when the company is not an agent', () => {
    expect(igvRetentionOf({ ...base, companyIsAgent: false })).toBeNull();
  });

  it('does not withhold at S/ 700.00 or less, and does at S/ 700.01', () => {
    expect(igvRetentionOf({ ...base, amount: 700, taxAmount: 106.78 })).toMatchObject({
      applies: false,
      amount: 0,
      reason: 'El importe no supera S/ 700.00.',
    });
    expect(igvRetentionOf({ ...base, amount: 700.01, taxAmount: 106.78 })).toMatchObject({
      applies: true,
      amount: 21,
    });
  });

  it('compares a total in dollars above 700 as above S/ 700, and leaves a smaller one to the day of payment', () => {
    expect(igvRetentionOf({ ...base, currency: 'USD', amount: 700.01 })).toMatchObject({ applies: true, amount: 21 });
    expect(igvRetentionOf({ ...base, currency: 'USD', amount: 500 })?.reason).toContain('tipo de cambio');
  });

  it('exempts buenos contribuyentes and agentes de retención (art. 5)', () => {
    expect(igvRetentionOf({ ...base, supplierExemption: 'BUEN_CONTRIBUYENTE' })).toMatchObject({
      applies: false,
      reason: 'Proveedor exceptuado: buen contribuyente.',
    });
    expect(igvRetentionOf({ ...base, supplierExemption: 'AGENTE_RETENCION' })).toMatchObject({
      applies: false,
      reason: 'Proveedor exceptuado: agente de retención.',
    });
  });

  it('does not withhold an operation subject to the SPOT, one without IGV, or a document that is not retained', () => {
    expect(igvRetentionOf({ ...base, subjectToDetraction: true })?.reason).toContain('detracción');
    expect(igvRetentionOf({ ...base, taxAmount: 0 })?.reason).toContain('sin IGV');
    for (const type of ['BOLETA', 'NOTA_DE_CREDITO', 'RECIBO_POR_HONORARIOS'] as const) {
      expect(igvRetentionOf({ ...base, type })).toMatchObject({ applies: false, amount: 0 });
    }
  });
});

describe('detracción', () => {
  it('subtracts the stated amount when it is in the document currency', () => {
    const detraction = detractionOf(
      { operationType: '1001', code: '037', percent: 12, amount: 141.6, currency: 'PEN', account: '00-000-123456' },
      { currency: 'PEN', amount: 1180 },
    );
    expect(detraction.amountInDocumentCurrency).toBe(141.6);
  });

  it('of a document in dollars keeps the deposit in soles and subtracts its percentage in dollars', () => {
    const detraction = detractionOf(
      { operationType: '1001', code: '037', percent: 12, amount: 531, currency: 'PEN', account: null },
      { currency: 'USD', amount: 1180 },
    );
    expect(detraction).toMatchObject({ amount: 531, currency: 'PEN', amountInDocumentCurrency: 141.6 });
  });
});

describe('the payment of an invoice', () => {
  const input: PaymentInput = {
    type: 'FACTURA',
    currency: 'PEN',
    amount: 1180,
    taxAmount: 180,
    method: 'CREDITO',
    installments: [
      { number: 2, amount: 519.2, dueDate: '2026-04-30' },
      { number: 1, amount: 519.2, dueDate: '2026-03-31' },
    ],
    declaredPendingAmount: 1038.4,
    dueDates: ['2026-03-31', '2026-04-30'],
    detraction: { operationType: '1001', code: '037', percent: 12, amount: 141.6, currency: 'PEN', account: null },
    receivedAt: '2026-03-02T15:00:00.000Z',
    company: {},
    supplierExemption: null,
  };

  it('credit with two cuotas and a 12 % detracción: net to pay, due on the last cuota, nothing flagged', () => {
    const payment = computePayment(input);
    expect(payment).toMatchObject({
      method: 'CREDITO',
      netToPay: 1038.4,
      warnings: [],
      dueDate: '2026-04-30',
      expectedPaymentDate: '2026-04-30',
      movedToPaymentRun: false,
      igvRetention: null,
    });
    expect(payment.installments.map((installment) => installment.number)).toEqual([1, 2]);
    expect(netToPayLine(payment, 'PEN')).toBe('Detracción S/ 141.60 (12 %) · Neto a pagar S/ 1,038.40');
  });

  it('flags cuotas that do not add up to the net to pay, and a declared pending amount that differs', () => {
    const payment = computePayment({
      ...input,
      installments: [
        { number: 1, amount: 590, dueDate: '2026-03-31' },
        { number: 2, amount: 590, dueDate: '2026-04-30' },
      ],
      declaredPendingAmount: 1180,
    });
    expect(payment.warnings).toEqual([
      'La suma de las cuotas (S/ 1,180.00) no coincide con el neto a pagar (S/ 1,038.40): diferencia de S/ 141.60.',
      'El monto neto pendiente de pago que declara el comprobante (S/ 1,180.00) no coincide con el neto a pagar (S/ 1,038.40).',
    ]);
  });

  it('takes the retention out of the net to pay for an agent company, and the cuotas must count it', () => {
    const payment = computePayment({
      ...input,
      detraction: null,
      installments: [{ number: 1, amount: 1180, dueDate: '2026-03-31' }],
      declaredPendingAmount: null,
      company: { igvRetentionAgent: true },
    });
    expect(payment.igvRetention).toMatchObject({ applies: true, amount: 35.4 });
    expect(payment.netToPay).toBe(1144.6);
    expect(payment.warnings[0]).toContain('no coincide con el neto a pagar (S/ 1,144.60)');
  });

  it('moves the due date to the company’s next payment-run day', () => {
    const payment = computePayment({ ...input, company: { paymentRunDays: [15, 30] } });
    expect(payment).toMatchObject({
      dueDate: '2026-04-30',
      expectedPaymentDate: '2026-04-30',
      movedToPaymentRun: false,
    });
    const later = computePayment({ ...input, company: { paymentRunDays: [5] } });
    expect(later).toMatchObject({ dueDate: '2026-04-30', expectedPaymentDate: '2026-05-05', movedToPaymentRun: true });
  });

  it('is due at reception when al contado, on Lima’s calendar, whatever due date the document also states', () => {
    const payment = computePayment({
      ...input,
      method: 'CONTADO',
      installments: [],
      declaredPendingAmount: null,
      detraction: null,
      dueDates: ['2026-05-30'],
      receivedAt: '2026-03-10T03:00:00.000Z', // 22:00 of the 9th in Lima
    });
    expect(payment).toMatchObject({ method: 'CONTADO', dueDate: '2026-03-09', netToPay: 1180, warnings: [] });
  });

  it('without a forma de pago, is due on the latest due date the document states, else at reception', () => {
    const base = { ...input, method: null, installments: [], declaredPendingAmount: null };
    expect(computePayment({ ...base, dueDates: ['2026-03-20', '2026-04-05'] }).dueDate).toBe('2026-04-05');
    expect(computePayment({ ...base, dueDates: [] })).toMatchObject({ method: 'CONTADO', dueDate: '2026-03-02' });
  });

  it('flags credit without cuotas', () => {
    const payment = computePayment({ ...input, installments: [], declaredPendingAmount: null, dueDates: [] });
    expect(payment.warnings).toEqual(['La forma de pago es al crédito, pero el comprobante no indica sus cuotas.']);
  });

  it('expects no payment for a credit note', () => {
    const payment = computePayment({ ...input, type: 'NOTA_DE_CREDITO', method: null, installments: [] });
    expect(payment).toMatchObject({ dueDate: null, expectedPaymentDate: null });
  });
});

describe('limaDayOf and installmentNumber', () => {
  it('places a reception on Lima’s calendar', () => {
    expect(limaDayOf('2026-03-10T04:59:59.000Z')).toBe('2026-03-09');
    expect(limaDayOf('2026-03-10T05:00:00.000Z')).toBe('2026-03-10');
  });

  it('reads SUNAT’s cuota ids', () => {
    expect(installmentNumber('Cuota001')).toBe(1);
    expect(installmentNumber('cuota012')).toBe(12);
    expect(installmentNumber('Pago1')).toBeNull();
  });
});

describe('the notices say when the invoice is paid', () => {
  const invoice = {
    supplierId: '20456178325',
    supplierName: 'Servicios Industriales Lima S.A.C.',
    client: '20100070970',
    clientName: 'Corporación Andina de Alimentos S.A.A.',
    type: 'FACTURA' as const,
    id: 'F001-123',
    payment: computePayment({
      type: 'FACTURA',
      currency: 'PEN',
      amount: 1180,
      taxAmount: 180,
      method: 'CREDITO',
      installments: [{ number: 1, amount: 1180, dueDate: '2027-01-09' }],
      declaredPendingAmount: null,
      dueDates: [],
      detraction: null,
      receivedAt: '2026-11-20T15:00:00.000Z',
      company: { paymentRunDays: [15, 30] },
      supplierExemption: null,
    }),
    remittance: {
      document: '2000123456',
      fiscalYear: '2027',
      paidAt: '2027-01-15',
      method: 'T',
      methodName: 'Transferencia bancaria',
      amount: null,
      currency: null,
    },
  };
  const at = new Date('2026-11-21T15:00:00.000Z');

  it('on acceptance: «Fecha de pago estimada dd/mm/aa»', () => {
    expect(notificationText(notificationAbout('INVOICE_APPROVED', invoice, null, at))).toBe(
      'Corporación Andina de Alimentos S.A.A. aprobó la factura F001-123. Fecha de pago estimada: 15/01/27.',
    );
  });

  it('on payment: the payment document and method', () => {
    expect(notificationText(notificationAbout('INVOICE_PAID', invoice, '2027-01-15', at))).toBe(
      'Corporación Andina de Alimentos S.A.A. pagó la factura F001-123 el 15/01/27 (documento de pago 2000123456, Transferencia bancaria).',
    );
  });

  it('says nothing of it for an invoice without a payment kept, or another event', () => {
    const { payment: _payment, remittance: _remittance, ...before } = invoice;
    expect(notificationText(notificationAbout('INVOICE_APPROVED', before, null, at))).toBe(
      'Corporación Andina de Alimentos S.A.A. aprobó la factura F001-123.',
    );
    expect(notificationAbout('SUNAT_VALID', invoice, null, at).expectedPaymentDate).toBeUndefined();
  });
});

describe('what the screens say of when an invoice is paid', () => {
  const payment = { dueDate: '2026-03-10', expectedPaymentDate: '2026-03-15' };

  it('reads the expected payment date while it is today or ahead', () => {
    expect(paymentOutlook(payment, '2026-03-01')).toEqual({ kind: 'EXPECTED', date: '2026-03-15' });
    expect(paymentOutlook(payment, '2026-03-15')).toEqual({ kind: 'EXPECTED', date: '2026-03-15' });
  });

  it('reads a passed expected date as overdue since the due date: a late invoice shows no past date to come', () => {
    expect(paymentOutlook(payment, '2026-03-16')).toEqual({ kind: 'OVERDUE', since: '2026-03-10' });
  });

  it('has nothing to say of an invoice with nothing to pay, or no payment kept', () => {
    expect(paymentOutlook({ dueDate: null, expectedPaymentDate: null }, '2026-03-16')).toEqual({ kind: 'NONE' });
    expect(paymentOutlook(null, '2026-03-16')).toEqual({ kind: 'NONE' });
  });
});
