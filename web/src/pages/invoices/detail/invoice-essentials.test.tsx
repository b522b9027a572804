import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  acquirerConformityView,
  addDays,
  computePayment,
  openAcquirerConformity,
  todayInLima,
  formatDate,
  type InvoiceDetail,
} from '@portal/shared';
import { unreviewedInvoice } from '../../../mock/invoices';
import { AcquirerConformitySection } from '../acquirer-conformity/conformity-section';
import { InvoiceEssentials } from './invoice-essentials';
import { PaymentSection } from './payment-section';

const PATH = { supplierId: '20100070970', invoiceType: 'FACTURA' as const, invoiceId: 'F001-123' };
const today = todayInLima();

/** A factura al crédito received today and issued `issuedDaysAgo` before, in two cuotas 30 and 60 days after its issue. */
function creditInvoice(issuedDaysAgo: number, change: Partial<InvoiceDetail> = {}): InvoiceDetail {
  const issuedAt = addDays(today, -issuedDaysAgo);
  const receivedAt = new Date().toISOString();
  const payment = computePayment({
    type: 'FACTURA',
    currency: 'PEN',
    amount: 1180,
    taxAmount: 180,
    method: 'CREDITO',
    installments: [
      { number: 1, amount: 590, dueDate: addDays(issuedAt, 30) },
      { number: 2, amount: 590, dueDate: addDays(issuedAt, 60) },
    ],
    declaredPendingAmount: 1180,
    dueDates: [],
    detraction: { operationType: '1001', code: '037', percent: 12, amount: 141.6, currency: 'PEN', account: null },
    receivedAt,
    company: {},
    supplierExemption: null,
  });
  return {
    id: 'F001-123',
    prefixId: 'F001',
    numericId: '123',
    type: 'FACTURA',
    status: 'PENDING',
    statusMessage: null,
    certStatus: 'VALID',
    approved: false,
    supplierId: PATH.supplierId,
    supplierName: 'Servicios Generales del Sur S.A.C.',
    client: '20512345678',
    clientName: 'Andina de Servicios S.A.',
    ...unreviewedInvoice(),
    currency: 'PEN',
    amount: 1180,
    taxAmount: 180,
    issuedAt,
    receivedAt,
    statusHistory: [],
    payment,
    acquirerConformity: acquirerConformityView(openAcquirerConformity({ receivedAt }), { issuedAt }, new Date()),
    ...change,
  } as InvoiceDetail;
}

function conformitySection(invoice: InvoiceDetail, level: 'SUPPLIER' | 'MANAGER') {
  return render(
    <AcquirerConformitySection
      invoice={invoice}
      level={level}
      path={PATH}
      number={invoice.id}
      onRegistered={() => {}}
    />,
  );
}

describe('what the invoice sidebar opens on', () => {
  it('says a late invoice is overdue since its last cuota, in the summary and in «Pago», never a past date to come', () => {
    const invoice = creditInvoice(90);
    const since = `Vencido desde el ${formatDate(addDays(invoice.issuedAt, 60))}`;

    render(
      <>
        <InvoiceEssentials invoice={invoice} staff={false} />
        <PaymentSection invoice={invoice} />
      </>,
    );

    expect(screen.getByTestId('invoice-essentials-payment').textContent).toBe(since);
    expect(screen.getByTestId('invoice-expected-payment-date').textContent).toBe(since);
    expect(screen.getByTestId('invoice-essentials-amount').textContent).toBe('S/ 1,180.00');
    expect(screen.getByTestId('invoice-essentials-net').textContent).toBe('S/ 1,038.40');
  });

  it('shows the company’s conformity countdown to its staff, not to the supplier', () => {
    const invoice = creditInvoice(1);
    const { unmount } = render(<InvoiceEssentials invoice={invoice} staff={false} />);
    expect(screen.queryByTestId('invoice-essentials-conformity')).toBeNull();
    unmount();

    render(<InvoiceEssentials invoice={invoice} staff />);
    expect(screen.getByTestId('invoice-essentials-conformity').textContent).toContain('quedan 8 días');
  });

  it('says why a rejected invoice stopped and what the supplier does next, with no payment to expect', () => {
    const invoice = creditInvoice(1, { status: 'REJECTED', statusMessage: 'La OC no corresponde.' });

    render(<InvoiceEssentials invoice={invoice} staff={false} />);

    const why = screen.getByTestId('invoice-essentials-reason');
    expect(why.textContent).toContain('Motivo: La OC no corresponde.');
    expect(within(why).getByTestId('invoice-essentials-next').textContent).toContain('no se puede volver a enviar');
    expect(screen.getByTestId('invoice-essentials-payment').textContent).toBe(
      'Sin pago previsto: el comprobante fue rechazado',
    );
  });

  it('explains the SPOT to the party it concerns, collapsed', () => {
    const invoice = creditInvoice(1);
    const { unmount } = render(<PaymentSection invoice={invoice} />);
    const rules = screen.getByTestId('invoice-detraction-rules');
    expect(within(rules).getByRole('button', { expanded: false })).toBeTruthy();
    expect(rules.textContent).toContain('Su cliente deposita la detracción');
    unmount();

    render(<PaymentSection invoice={invoice} staff />);
    expect(screen.getByTestId('invoice-detraction-rules').textContent).toContain('La sociedad deposita la detracción');
  });
});

describe('the Ley 29623 section of the sidebar', () => {
  it('is collapsed, and says the 8-day duty to the party it concerns', () => {
    const invoice = creditInvoice(1);
    const { unmount } = conformitySection(invoice, 'SUPPLIER');
    const section = screen.getByTestId('acquirer-conformity-section');
    expect(within(section).getByRole('button', { expanded: false })).toBeTruthy();
    expect(section.textContent).toContain('Su cliente tiene 8 días calendario');
    expect(section.textContent).not.toContain('Como adquirente, la sociedad');
    unmount();

    conformitySection(invoice, 'MANAGER');
    expect(screen.getByTestId('acquirer-conformity-section').textContent).toContain('Como adquirente, la sociedad');
  });

  it('shows one deadline for a late invoice: SUNAT’s latest, not the portal’s count from the reception', () => {
    const invoice = creditInvoice(30);
    const latest = formatDate(addDays(invoice.issuedAt, 10));

    conformitySection(invoice, 'MANAGER');

    const section = screen.getByTestId('acquirer-conformity-section');
    expect(screen.getByTestId('acquirer-conformity-deadline').textContent).toBe(`A más tardar el ${latest}`);
    expect(screen.getByTestId('acquirer-conformity-status').textContent).toBe(`Venció el ${latest}`);
    expect(section.textContent).not.toContain(formatDate(invoice.acquirerConformity!.deadline));
  });

  it('shows no countdown on a rejected invoice', () => {
    const invoice = creditInvoice(1, { status: 'REJECTED', statusMessage: 'La OC no corresponde.' });

    conformitySection(invoice, 'MANAGER');

    expect(screen.queryByTestId('acquirer-conformity-status')).toBeNull();
    expect(screen.getByTestId('acquirer-conformity-section').textContent).not.toMatch(/quedan? \d+ días?/);
  });
});
