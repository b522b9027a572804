import * as z from 'zod/mini';
import { COUNT_LIMITS } from '../limits.js';
import { IsoDate, Money, RequestMoney } from './common.js';

// What an invoice says about its payment and what the portal expects to pay (docs/ap-payment.md): the forma de
// pago and its cuotas (R.S. 193-2020/SUNAT), the detracción (SPOT), the retención del IGV, the net to pay, the
// due and expected payment dates; and SAP's remittance once paid.

export const PAYMENT_METHODS = ['CONTADO', 'CREDITO'] as const;
/** Forma de pago (cac:PaymentTerms with cbc:ID FormaPago). */
export const PaymentMethod = z.enum(PAYMENT_METHODS);
export type PaymentMethod = z.infer<typeof PaymentMethod>;

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = { CONTADO: 'Contado', CREDITO: 'Crédito' };

/** One cuota of a sale on credit: its number (Cuota001 → 1), amount and due date. */
export const Installment = z.object({
  number: z.int().check(z.positive()),
  amount: Money,
  dueDate: IsoDate,
});
export type Installment = z.infer<typeof Installment>;

/** The detracción (SPOT) a document states: catálogo 51 operation type, catálogo 54 code, percentage, amount. */
export const Detraction = z.object({
  /** Catálogo 51 (tipo de operación), e.g. '1001'; null when the document does not say. */
  operationType: z.nullable(z.string()),
  /** Catálogo 54 code of the good or service, e.g. '037'. */
  code: z.string(),
  /** Percentage as stated, e.g. 12. */
  percent: z.number(),
  /** The amount to deposit as stated (SUNAT asks for it in soles). */
  amount: Money,
  /** The currency of `amount`: PEN, or the document's when the issuer stated it so. */
  currency: z.enum(['PEN', 'USD']),
  /** The same amount in the document's currency: what is subtracted from the amount to pay. */
  amountInDocumentCurrency: Money,
  /** The supplier's detracciones account in Banco de la Nación (cac:PaymentMeans/cac:PayeeFinancialAccount). */
  account: z.nullable(z.string()),
});
export type Detraction = z.infer<typeof Detraction>;

/** The retención del IGV of a company that is agente de retención (R.S. 037-2002/SUNAT). */
export const IgvRetention = z.object({
  /** Whether the 3 % is withheld; when not, `reason` says why (threshold, exemption, SPOT…). */
  applies: z.boolean(),
  /** Rate in percent (3 since R.S. 033-2014/SUNAT). */
  percent: z.number(),
  /** Withheld amount in the document's currency; 0 when it does not apply. */
  amount: Money,
  /** Why it does not apply (Spanish, for people); null when it does. */
  reason: z.nullable(z.string()),
});
export type IgvRetention = z.infer<typeof IgvRetention>;

/** SAP's payment of the invoice, as its payment run reports it (the remittance). */
export const Remittance = z.object({
  /** SAP's payment document number. */
  document: z.string(),
  fiscalYear: z.nullable(z.string()),
  paidAt: IsoDate,
  /** SAP's payment method code (e.g. T) and its name as SAP reports it. */
  method: z.string(),
  methodName: z.string(),
  /** What SAP paid, in `currency`; null when SAP does not report it. */
  amount: z.nullable(Money),
  currency: z.nullable(z.string()),
});
export type Remittance = z.infer<typeof Remittance>;

/** The payment side of an invoice, computed at intake (rules/payment.ts). */
export const InvoicePayment = z.object({
  method: PaymentMethod,
  installments: z.array(Installment),
  /** Monto neto pendiente de pago the document declares with Crédito; null when it does not. */
  declaredPendingAmount: z.nullable(Money),
  detraction: z.nullable(Detraction),
  /** Null when the company is not agente de retención. */
  igvRetention: z.nullable(IgvRetention),
  /** Amount − detracción − retención, in the document's currency. */
  netToPay: Money,
  /** What does not add up (cuotas against the net to pay…), in Spanish; flagged, never refused. */
  warnings: z.array(z.string()),
  /** When the document falls due (the last cuota, its due date, or the reception for Contado); null: nothing to pay. */
  dueDate: z.nullable(IsoDate),
  /** The due date moved to the company's next payment-run day, if it has them. */
  expectedPaymentDate: z.nullable(IsoDate),
  /** Whether expectedPaymentDate was moved to a payment-run day. */
  movedToPaymentRun: z.boolean(),
});
export type InvoicePayment = z.infer<typeof InvoicePayment>;

/** The forma de pago typed in 'Nuevo comprobante' (POST /invoices/without-xml). */
export const PaymentTermsInput = z.object({
  method: PaymentMethod,
  /** Required with CREDITO, none with CONTADO; numbered in order. */
  installments: z._default(
    z
      .array(z.object({ amount: RequestMoney.check(z.positive()), dueDate: IsoDate }))
      .check(z.maxLength(COUNT_LIMITS.installments)),
    [],
  ),
});
export type PaymentTermsInput = z.infer<typeof PaymentTermsInput>;

/** The detracción typed in 'Nuevo comprobante': the amount is computed from the total and the percentage. */
export const DetractionInput = z.object({
  code: z.string().check(z.regex(/^\d{3}$/, 'el código del catálogo 54 tiene 3 dígitos')),
  percent: z.number().check(z.positive(), z.maximum(100), z.multipleOf(0.01)),
  account: z.optional(z.string().check(z.trim(), z.regex(/^[0-9-]{1,30}$/, 'la cuenta tiene solo dígitos y guiones'))),
  /** The deposit in soles, for a document in dollars (its amount in soles depends on the exchange rate). */
  amountPen: z.optional(RequestMoney.check(z.positive())),
});
export type DetractionInput = z.infer<typeof DetractionInput>;

/** The company's payment configuration (docs/ap-payment.md): payment-run days and the retention agent flag. */
export const PaymentRunDays = z
  .array(z.int().check(z.minimum(1), z.maximum(31)))
  .check(z.minLength(1), z.maxLength(31));

/** Why a supplier is not retained the IGV (R.S. 037-2002/SUNAT art. 5). */
export const RETENTION_EXEMPTIONS = ['BUEN_CONTRIBUYENTE', 'AGENTE_RETENCION'] as const;
export const RetentionExemption = z.enum(RETENTION_EXEMPTIONS);
export type RetentionExemption = z.infer<typeof RetentionExemption>;
