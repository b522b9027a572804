import * as z from 'zod/mini';
import { COUNT_LIMITS } from '../limits.js';
import { IsoDate, Money } from './common.js';

/**
 * The forma de pago of an invoice as the XML states it (R.S. 193-2020/SUNAT: cac:PaymentTerms FormaPago, Contado or
 * Credito, and one Cuota### per installment). Kept minimal here for the Ley 29623 conformity clock, which only asks
 * whether a document is al crédito and when it is payable: `creditTermsOf` (rules/acquirer-conformity.ts) is the one
 * place that reads it, so that the full payment-terms model of issue 21 can replace this schema at merge time.
 */
export const PaymentTerms = z.object({
  method: z.enum(['CONTADO', 'CREDITO']),
  /** Monto neto pendiente de pago (with Crédito); null when the document does not state it. */
  pendingAmount: z.nullable(Money),
  installments: z
    .array(z.object({ number: z.int().check(z.positive()), amount: Money, dueDate: IsoDate }))
    .check(z.maxLength(COUNT_LIMITS.installments)),
});
export type PaymentTerms = z.infer<typeof PaymentTerms>;
