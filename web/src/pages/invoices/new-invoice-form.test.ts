import { describe, expect, it } from 'vitest';
import { TEXT_LIMITS, formatDate, todayInLima } from '@portal/shared';
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
  issueDate: '14/03/25',
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
    expect(validateForm({ ...filled, issueDate: formatDate(tomorrow) }).errors).toEqual({
      issueDate: messages.issueDate,
    });
    expect(validateForm({ ...filled, issueDate: '31/12/2009' }).errors).toEqual({ issueDate: messages.issueDate });
    expect(messages.issueDate).toBe('Elija la fecha de emisión: desde el 01/01/2010 hasta hoy.');
  });
});

describe('the issue date, typed dd/mm/aa (spec §1, §9)', () => {
  it('sends the ISO date a typed dd/mm/aa or dd/mm/aaaa stands for, two-digit years being 20yy', () => {
    expect(validateForm({ ...filled, issueDate: '05/11/26' }).body?.issueDate).toBe('2026-11-05');
    expect(validateForm({ ...filled, issueDate: '5/11/2026' }).body?.issueDate).toBe('2026-11-05');
    expect(validateForm({ ...filled, issueDate: formatDate(todayInLima()) }).errors).toEqual({});
  });

  it('says in Spanish what is wrong with a date that is not one', () => {
    const typed = invoicesMessages.create.issueDateTyped;
    expect(validateForm({ ...filled, issueDate: '31/02/26' })).toEqual({
      errors: { issueDate: typed.IMPOSSIBLE },
      body: null,
    });
    expect(validateForm({ ...filled, issueDate: '2026/11/05' }).errors).toEqual({ issueDate: typed.FORMAT });
    expect(validateForm({ ...filled, issueDate: '' }).errors).toEqual({ issueDate: messages.issueDate });
  });
});

describe('a note in the form without XML', () => {
  const note = { ...filled, type: 'NOTA_DE_CREDITO' as const, prefixId: 'FC01' };

  it('asks for the original it modifies and a reason of its catálogo', () => {
    expect(validateForm(note).errors).toEqual({
      billingReference: messages.billingReference,
      noteReasonCode: messages.noteReasonCode,
    });
    expect(
      validateForm({ ...note, originalPrefixId: 'B001', originalNumericId: '7', noteReasonCode: '04' }).errors,
    ).toEqual({ billingReference: messages.originalPrefixForType });
  });

  it('sends the original and the reason with the note, and neither with a factura', () => {
    const { errors, body } = validateForm({
      ...note,
      originalPrefixId: 'f001',
      originalNumericId: '00000458',
      noteReasonCode: '07',
      noteReasonDescription: ' Devolución de dos unidades ',
    });
    expect(errors).toEqual({});
    expect(body).toMatchObject({
      billingReference: { type: 'FACTURA', prefixId: 'F001', numericId: '00000458' },
      noteReasonCode: '07',
      noteReasonDescription: 'Devolución de dos unidades',
    });
    const factura = validateForm({ ...filled, originalPrefixId: 'F001', originalNumericId: '1', noteReasonCode: '07' });
    expect(factura.body).not.toHaveProperty('billingReference');
    expect(factura.body).not.toHaveProperty('noteReasonCode');
  });
});
