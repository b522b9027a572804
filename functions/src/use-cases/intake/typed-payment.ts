import {
  BadRequestError,
  DETRACTION_CODES,
  detractionAmountCents,
  formatMoney,
  fromCents,
  peruvianDate,
  toCents,
  type DetractionStatement,
  type RouteBody,
  type Routes,
} from '@portal/shared';
import type { IncomingDocument } from './intake-deps.js';

export type WithoutXmlBody = RouteBody<Routes['createInvoiceWithoutXml']>;

/**
 * The forma de pago and detracción typed in 'Nuevo comprobante', checked as SUNAT checks a document's
 * (docs/ap-payment.md): Crédito has cuotas, each due after the issue date, Contado none; a detracción names a
 * catálogo 54 code on a factura or nota de débito, and its deposit is the percentage of the total (a document in
 * dollars states the deposit in soles). Cuotas that do not add up to the net to pay are flagged, not refused.
 */
export function typedPayment(body: WithoutXmlBody): Pick<IncomingDocument, 'paymentTerms' | 'dueDates' | 'detraction'> {
  const terms = body.paymentTerms ?? { method: 'CONTADO' as const, installments: [] };
  const refuse = (reason: string) => new BadRequestError('ERROR_PAYMENT_TERMS_INVALID', { reason });
  if (terms.method === 'CREDITO' && terms.installments.length === 0) {
    throw refuse('una venta al crédito debe indicar al menos una cuota');
  }
  if (terms.method === 'CONTADO' && terms.installments.length > 0) {
    throw refuse('una venta al contado no tiene cuotas');
  }
  terms.installments.forEach((installment, i) => {
    if (installment.dueDate <= body.issueDate) {
      throw refuse(
        `la cuota ${i + 1} vence el ${peruvianDate(installment.dueDate)}, y debe vencer después de la fecha de emisión (${peruvianDate(body.issueDate)})`,
      );
    }
  });

  let detraction: DetractionStatement | null = null;
  if (body.detraction) {
    const typed = body.detraction;
    const refuseDetraction = (reason: string) => new BadRequestError('ERROR_DETRACTION_INVALID', { reason });
    if (body.type !== 'FACTURA' && body.type !== 'NOTA_DE_DEBITO') {
      throw refuseDetraction('solo una factura o una nota de débito lleva detracción');
    }
    if (!(typed.code in DETRACTION_CODES)) {
      throw refuseDetraction(`el código ${typed.code} no figura en el catálogo 54 de SUNAT`);
    }
    const computed = detractionAmountCents(body.amount, typed.percent);
    let amount = fromCents(computed);
    if (body.currency === 'PEN') {
      if (typed.amountPen !== undefined && toCents(typed.amountPen) !== computed) {
        throw refuseDetraction(
          `el depósito es el ${typed.percent} % del importe total, ${formatMoney(amount)}, no ${formatMoney(typed.amountPen)}`,
        );
      }
    } else {
      if (typed.amountPen === undefined) {
        throw refuseDetraction('en un comprobante en dólares indique el monto del depósito en soles');
      }
      amount = typed.amountPen;
    }
    detraction = {
      operationType: '1001',
      code: typed.code,
      percent: typed.percent,
      amount,
      currency: 'PEN',
      account: typed.account ?? null,
    };
  }
  return {
    paymentTerms: {
      method: terms.method,
      installments: terms.installments.map((installment, i) => ({ number: i + 1, ...installment })),
      declaredPendingAmount: null,
    },
    dueDates: [],
    detraction,
  };
}
