import { formatErrorMessage } from '@portal/shared';

/**
 * The texts of an invoice's payment on the invoices screen (docs/ap-payment.md): the estimated 'Fecha de pago', the
 * 'Vence entre' filter, the sidebar's 'Pago' section and the forma de pago and detracción of 'Nuevo comprobante'.
 */
export const paymentMessages = {
  /** After a 'Fecha de pago' the portal estimates (SAP has not scheduled the payment yet). */
  estimated: '(estimada)',
  estimatedHint: 'Fecha de pago estimada: el vencimiento del comprobante; SAP aún no programa el pago.',
  /** An estimated date that passed unpaid: overdue since its due date, never a past date as if to come. */
  overdue: (date: string) => `Vencido desde el ${date}`,
  overdueHint: 'La fecha de pago estimada ya pasó y el pago aún no figura como realizado.',
  /** Its hint when the due date was moved to the company's payment-run day. */
  movedHint: (due: string) =>
    `Fecha de pago estimada: vence el ${due} y se paga el siguiente día de pago de la sociedad; SAP aún no programa el pago.`,

  filter: {
    label: 'Vence entre',
    description: 'Fecha de pago estimada.',
    from: 'Desde',
    to: 'Hasta',
    invalid: 'Escriba la fecha como dd/mm/aa.',
    reversed: 'La fecha final es anterior a la inicial.',
    token: (from: string | null, to: string | null) =>
      from && to ? `Vence entre ${from} y ${to}` : from ? `Vence desde ${from}` : `Vence hasta ${to}`,
  },

  section: {
    title: 'Pago',
    method: 'Forma de pago',
    installments: 'Cuotas',
    installment: (number: number, amount: string, due: string) => `Cuota ${number}: ${amount}, vence el ${due}`,
    dueDate: 'Fecha de vencimiento',
    expected: 'Fecha de pago estimada',
    movedNote: (due: string) => `Vence el ${due}: se paga el siguiente día de pago de la sociedad.`,
    noPayment: 'Sin pago previsto',
    detraction: 'Detracción (SPOT)',
    detractionValue: (amount: string, percent: string, code: string, label: string) =>
      `${amount} (${percent}) · ${code} ${label}`,
    detractionAccount: (account: string) => `Cuenta de detracciones en el Banco de la Nación: ${account}`,
    retention: 'Retención del IGV',
    retentionValue: (amount: string, percent: string) => `${amount} (${percent})`,
    retentionNone: (reason: string) => `No se retiene: ${reason}`,
    netToPay: 'Neto a pagar',
    warningsHeader: 'Revise la forma de pago',
    remittance: 'Pago realizado',
    remittanceValue: (date: string, document: string, method: string) =>
      `El ${date}, documento de pago ${document} (${method})`,
    remittanceAmount: (amount: string) => `Importe pagado: ${amount}`,
  },

  form: {
    method: 'Forma de pago',
    methodDescription: 'Como figura en el comprobante (Contado o Crédito).',
    installments: 'Cuotas',
    installmentAmount: (number: number) => `Monto de la cuota ${number}`,
    installmentDueDate: (number: number) => `Vencimiento de la cuota ${number}`,
    addInstallment: 'Agregar cuota',
    removeInstallment: (number: number) => `Quitar la cuota ${number}`,
    installmentsRequired: formatErrorMessage('ERROR_PAYMENT_TERMS_INVALID', {
      reason: 'una venta al crédito debe indicar al menos una cuota',
    }),
    installmentAmountInvalid: 'Ingrese un monto mayor que cero, con hasta dos decimales.',
    installmentDateInvalid: 'Escriba la fecha de vencimiento como dd/mm/aa.',
    installmentDateAfterIssue: 'La cuota debe vencer después de la fecha de emisión.',
    installmentsSum: (sum: string, net: string) =>
      `La suma de las cuotas (${sum}) no coincide con el neto a pagar (${net}): se registrará y se marcará para revisión.`,
    detraction: 'Operación sujeta a detracción (SPOT)',
    detractionCode: 'Bien o servicio (catálogo 54)',
    detractionCodePlaceholder: 'Seleccione el código',
    detractionCodeRequired: 'Seleccione el bien o servicio sujeto a detracción.',
    detractionPercent: 'Porcentaje de detracción',
    detractionPercentInvalid: 'Ingrese un porcentaje mayor que cero y hasta 100, con hasta dos decimales.',
    detractionAccount: 'Cuenta de detracciones (Banco de la Nación)',
    detractionAccountInvalid: 'La cuenta tiene solo dígitos y guiones.',
    detractionAmountPen: 'Monto del depósito en soles',
    detractionAmountPenDescription: 'En un comprobante en dólares, el depósito de la detracción se hace en soles.',
    detractionAmountPenRequired: 'Ingrese el monto del depósito en soles.',
  },
} as const;
