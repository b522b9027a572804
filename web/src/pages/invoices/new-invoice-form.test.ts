import { describe, expect, it } from 'vitest';
import { TEXT_LIMITS, todayInLima } from '@portal/shared';
import { invoicesMessages } from './messages';
import { emptyForm, validateForm } from './new-invoice-form';

// The form's instant feedback applies the API's own limits (the shared schema), field by field.

const messages = invoicesMessages.create.errors;
const filled = emptyForm({
  prefixId: 'F001',
  numericId: '123',
  clientTaxId: '20100070970',
  supplierTaxId: '20456178325',
  supplierName: 'Servicios Industriales Lima S.A.C.',
  amount: '1180.00',
  taxAmount: '180.00',
  issueDate: '2025-03-14',
  pdf: [new File(['%PDF-1.4'], 'comprobante.pdf', { type: 'application/pdf' })],
});
const tomorrow = new Date(Date.parse(`${todayInLima()}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe('new invoice form limits', () => {
  it('accepts the form within every limit', () => {
    expect(
      validateForm({ ...filled, supplierName: 'Ñ'.repeat(TEXT_LIMITS.partyName), amount: '9999999999.99' }).errors,
    ).toEqual({});
  });

  it('marks a name too long, an amount too large, a date in the future or before 2010', () => {
    expect(validateForm({ ...filled, supplierName: 'A'.repeat(203 * 1024) }).errors).toEqual({
      supplierName: messages.supplierName,
    });
    expect(validateForm({ ...filled, amount: '999999999999999.99' }).errors).toEqual({ amount: messages.amount });
    expect(validateForm({ ...filled, issueDate: tomorrow }).errors).toEqual({ issueDate: messages.issueDate });
    expect(validateForm({ ...filled, issueDate: '2009-12-31' }).errors).toEqual({ issueDate: messages.issueDate });
    expect(messages.issueDate).toBe('Elija la fecha de emisión: desde el 01/01/2010 hasta hoy.');
  });
});
