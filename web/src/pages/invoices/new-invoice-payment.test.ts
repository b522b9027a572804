import { describe, expect, it } from 'vitest';
import { EMPTY_PAYMENT, validatePayment } from './new-invoice-payment';
import { paymentMessages } from './payment-messages';

// The forma de pago and detracción of 'Nuevo comprobante' are checked before anything is sent, as the API checks them.

const text = paymentMessages.form;
const document = { issueDate: '2026-11-10', currency: 'PEN' as const, type: 'FACTURA' as const };

describe('the forma de pago typed in Nuevo comprobante', () => {
  it('sends Contado when nothing is chosen', () => {
    expect(validatePayment(EMPTY_PAYMENT, document)).toEqual({
      errors: {},
      body: { paymentTerms: { method: 'CONTADO', installments: [] } },
    });
  });

  it('sends Crédito with its cuotas in order, as ISO dates', () => {
    const { body } = validatePayment(
      {
        ...EMPTY_PAYMENT,
        method: 'CREDITO',
        installments: [
          { amount: '519.20', dueDate: '10/12/26' },
          { amount: '519.20', dueDate: '09/01/27' },
        ],
      },
      document,
    );
    expect(body?.paymentTerms).toEqual({
      method: 'CREDITO',
      installments: [
        { amount: 519.2, dueDate: '2026-12-10' },
        { amount: 519.2, dueDate: '2027-01-09' },
      ],
    });
  });

  it('asks for a cuota, a positive amount and a due date after the issue date', () => {
    expect(validatePayment({ ...EMPTY_PAYMENT, method: 'CREDITO' }, document).errors).toEqual({
      installments: text.installmentsRequired,
    });
    expect(
      validatePayment(
        { ...EMPTY_PAYMENT, method: 'CREDITO', installments: [{ amount: '0', dueDate: '10/11/26' }] },
        document,
      ),
    ).toEqual({
      errors: {
        installmentAmount0: text.installmentAmountInvalid,
        installmentDueDate0: text.installmentDateAfterIssue,
      },
      body: null,
    });
  });

  it('sends a detracción with its code and percentage, and asks the deposit in soles of a document in dollars', () => {
    const typed = { ...EMPTY_PAYMENT, detraction: true, detractionCode: '037', detractionPercent: '12' };
    expect(validatePayment(typed, document).body?.detraction).toEqual({ code: '037', percent: 12 });
    expect(validatePayment(typed, { ...document, currency: 'USD' }).errors).toEqual({
      detractionAmountPen: text.detractionAmountPenRequired,
    });
    expect(validatePayment({ ...typed, detractionCode: '', detractionPercent: '120' }, document).errors).toEqual({
      detractionCode: text.detractionCodeRequired,
      detractionPercent: text.detractionPercentInvalid,
    });
  });
});
