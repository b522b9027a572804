import {
  DetractionInput,
  PaymentTermsInput,
  parseTypedDate,
  type Currency,
  type InvoiceType,
  type PaymentMethod,
} from '@portal/shared';
import { paymentMessages } from './payment-messages';

/**
 * The forma de pago and detracción of 'Nuevo comprobante' (docs/ap-payment.md), as typed: checked with the
 * route's own schemas (PaymentTermsInput, DetractionInput) and the rules the API adds (Crédito has cuotas due
 * after the issue date; a document in dollars states its deposit in soles). Pure, like new-invoice-form.ts.
 */
export interface PaymentForm {
  readonly method: PaymentMethod;
  /** Amount and due date (dd/mm/aa) as typed. */
  readonly installments: readonly { readonly amount: string; readonly dueDate: string }[];
  readonly detraction: boolean;
  readonly detractionCode: string;
  readonly detractionPercent: string;
  readonly detractionAccount: string;
  readonly detractionAmountPen: string;
}

export type PaymentField =
  | 'installments'
  | `installmentAmount${number}`
  | `installmentDueDate${number}`
  | 'detractionCode'
  | 'detractionPercent'
  | 'detractionAccount'
  | 'detractionAmountPen';
export type PaymentErrors = Partial<Record<PaymentField, string>>;

export interface PaymentBody {
  readonly paymentTerms: PaymentTermsInput;
  readonly detraction?: DetractionInput;
}

export const EMPTY_PAYMENT: PaymentForm = {
  method: 'CONTADO',
  installments: [],
  detraction: false,
  detractionCode: '',
  detractionPercent: '',
  detractionAccount: '',
  detractionAmountPen: '',
};

/** A number as typed with at most `decimals` decimals: NaN when it is not one. */
function numberOf(typed: string, decimals = 2): number {
  const compact = typed.replace(/\s/g, '');
  return new RegExp(`^\\d+(\\.\\d{1,${decimals}})?$`).test(compact) ? Number(compact) : Number.NaN;
}

export function validatePayment(
  form: PaymentForm,
  document: { readonly issueDate: string | null; readonly currency: Currency; readonly type: InvoiceType },
): { errors: PaymentErrors; body: PaymentBody | null } {
  const text = paymentMessages.form;
  const errors: PaymentErrors = {};
  const installments = form.method === 'CREDITO' ? form.installments : [];
  if (form.method === 'CREDITO' && installments.length === 0) errors.installments = text.installmentsRequired;
  const typedInstallments = installments.map((installment, i) => {
    const amount = numberOf(installment.amount);
    if (!(amount > 0)) errors[`installmentAmount${i}`] = text.installmentAmountInvalid;
    const due = parseTypedDate(installment.dueDate);
    if (!('date' in due)) errors[`installmentDueDate${i}`] = text.installmentDateInvalid;
    else if (document.issueDate && due.date <= document.issueDate) {
      errors[`installmentDueDate${i}`] = text.installmentDateAfterIssue;
    }
    return { amount, dueDate: 'date' in due ? due.date : '' };
  });
  const paymentTerms = PaymentTermsInput.safeParse({ method: form.method, installments: typedInstallments });

  let detraction: DetractionInput | undefined;
  if (form.detraction) {
    if (!form.detractionCode) errors.detractionCode = text.detractionCodeRequired;
    const percent = numberOf(form.detractionPercent);
    if (!(percent > 0 && percent <= 100)) errors.detractionPercent = text.detractionPercentInvalid;
    const account = form.detractionAccount.trim();
    if (account && !/^[0-9-]{1,30}$/.test(account)) errors.detractionAccount = text.detractionAccountInvalid;
    const amountPen = numberOf(form.detractionAmountPen);
    if (document.currency !== 'PEN' && !(amountPen > 0)) errors.detractionAmountPen = text.detractionAmountPenRequired;
    const parsed = DetractionInput.safeParse({
      code: form.detractionCode,
      percent,
      ...(account ? { account } : {}),
      ...(document.currency !== 'PEN' ? { amountPen } : {}),
    });
    if (parsed.success) detraction = parsed.data;
  }

  if (Object.keys(errors).length > 0 || !paymentTerms.success || (form.detraction && !detraction)) {
    return { errors, body: null };
  }
  return { errors, body: { paymentTerms: paymentTerms.data, ...(detraction ? { detraction } : {}) } };
}
