import {
  BadRequestError,
  COUNT_LIMITS,
  CURRENCIES,
  LEGEND_FREE_OF_CHARGE,
  PRICE_TYPE_FREE_OF_CHARGE,
  TAX_SCHEME,
  TEXT_LIMITS,
  allowanceChargeCodeOf,
  formatMoney,
  type Currency,
  type DocumentAllowanceCharge,
  type DocumentPrepayment,
  type DocumentTaxes,
} from '@portal/shared';
import { NS } from './namespaces.js';
import type { ParsedDetraction } from './parsed-document.js';
import { allOf, childOf, childrenOf, pathOf, textOf, type XmlElement } from './xml-tree.js';
import type { rootKind } from './read-fields.js';
import {
  FIELD,
  LINES,
  amountOf,
  bounded,
  cac,
  cbc,
  cents,
  counted,
  invalid,
  missing,
  required,
  sum,
  taxOfScheme,
  withinMaximum,
} from './read-fields.js';
import { isRentaRetentionAllowance } from './read-honorarios.js';
import { normalised } from './read-terms.js';

/*
 * Every document SUNAT accepts, read right (rules and sources in docs/ap-documents.md): the taxes
 * beside the IGV, the document-level discounts and charges (catálogo 53), the anticipos deducted, a
 * transferencia gratuita (scheme 9996, catálogo 16 price type 02, legend 1002), the operation type
 * (catálogo 51). Amounts that contradict each other the way SUNAT's own validation refuses are refused here too.
 */

/** SUNAT's tolerance, one unit of the currency either way, when it checks that the totals add up (rule 3280). */
const SUNAT_TOTALS_TOLERANCE = 1;

/** A signed amount, within ±MAX_AMOUNT: only the rounding of the importe total may be negative. */
function signedAmountOf(element: XmlElement | undefined, field: string): number | undefined {
  const raw = textOf(element);
  if (raw === undefined) return undefined;
  if (!/^[-+]?\d+(\.\d+)?$/.test(raw)) throw invalid(field);
  const value = Math.round(Number(raw) * 100) / 100;
  withinMaximum(Math.abs(value), field);
  return value;
}

/** The monetary total: the requested one of a debit note, else the legal one. */
export function monetaryTotalOf(root: XmlElement, kind: ReturnType<typeof rootKind>): XmlElement | undefined {
  return (
    (kind === 'DebitNote' ? childOf(root, NS.cac, 'RequestedMonetaryTotal') : undefined) ??
    childOf(root, NS.cac, 'LegalMonetaryTotal')
  );
}

/** Catálogo 51 code: cbc:InvoiceTypeCode/@listID (UBL 2.1), or cbc:ProfileID in the first UBL 2.1 documents. */
export function readOperationType(root: XmlElement): string | null {
  const listId = childOf(root, NS.cbc, 'InvoiceTypeCode')?.attributes.get('listID')?.trim();
  if (listId) {
    if (!/^\d{4}$/.test(listId)) throw invalid(FIELD.operationType);
    return listId;
  }
  const profile = textOf(childOf(root, NS.cbc, 'ProfileID'));
  return profile !== undefined && /^\d{4}$/.test(profile) ? profile : null;
}

/** The taxable amounts of the header subtotals of a scheme (the value, not the tax). */
function taxableOfScheme(root: XmlElement, scheme: string, field: string): number {
  const amounts = allOf(root, cac('TaxTotal'), cac('TaxSubtotal'))
    .filter((subtotal) => textOf(pathOf(subtotal, cac('TaxCategory'), cac('TaxScheme'), cbc('ID'))) === scheme)
    .map((subtotal) => amountOf(childOf(subtotal, NS.cbc, 'TaxableAmount'), field) ?? 0);
  return withinMaximum(sum(amounts), field);
}

function readTaxes(root: XmlElement, igv: number): DocumentTaxes {
  const ivap = taxOfScheme(root, TAX_SCHEME.IVAP, FIELD.otherTaxAmount).amount;
  const others = taxOfScheme(root, TAX_SCHEME.OTHER, FIELD.otherTaxAmount).amount;
  return {
    igv,
    isc: taxOfScheme(root, TAX_SCHEME.ISC, FIELD.iscAmount).amount,
    icbper: taxOfScheme(root, TAX_SCHEME.ICBPER, FIELD.icbperAmount).amount,
    other: withinMaximum(sum([ivap, others]), FIELD.otherTaxAmount),
  };
}

/**
 * Document-level discounts and charges. The deduction of anticipos (catálogo 53 04–06, 20) is the anticipo's
 * value taken from the taxable base, shown once as the anticipos deducted; a percepción (51–53) is collected
 * beside the importe total, never in it; a recibo's retención de 4ta categoría is its withholding. None is listed.
 */
function readAllowanceCharges(
  root: XmlElement,
  recibo: boolean,
): {
  allowances: DocumentAllowanceCharge[];
  charges: DocumentAllowanceCharge[];
} {
  const elements = counted(
    childrenOf(root, NS.cac, 'AllowanceCharge'),
    FIELD.allowanceCharge,
    COUNT_LIMITS.allowanceCharges,
  );
  const allowances: DocumentAllowanceCharge[] = [];
  const charges: DocumentAllowanceCharge[] = [];
  for (const element of elements) {
    const indicator = textOf(childOf(element, NS.cbc, 'ChargeIndicator'))?.toLowerCase();
    const isCharge = indicator === 'true' || indicator === '1';
    if (!isCharge && indicator !== 'false' && indicator !== '0') {
      throw indicator === undefined ? missing(FIELD.allowanceChargeIndicator) : invalid(FIELD.allowanceChargeIndicator);
    }
    const code =
      bounded(textOf(childOf(element, NS.cbc, 'AllowanceChargeReasonCode')), FIELD.allowanceCharge, TEXT_LIMITS.code) ??
      null;
    const amount = required(
      amountOf(childOf(element, NS.cbc, 'Amount'), FIELD.allowanceChargeAmount),
      FIELD.allowanceChargeAmount,
    );
    const kind = allowanceChargeCodeOf(code)?.kind;
    if (kind === 'PREPAYMENT' || kind === 'PERCEPTION') continue;
    // A recibo's retención de 4ta categoría is its withholding (readWithholding), not a discount.
    if (recibo && isRentaRetentionAllowance(element)) continue;
    (isCharge ? charges : allowances).push({ code, amount });
  }
  return { allowances, charges };
}

/** Catálogo 12 codes of the document an anticipo was billed in: 02 factura, 03 boleta. */
const PREPAYMENT_DOCUMENT_TYPES = new Set(['02', '03']);
const SERIES_AND_NUMBER = /^[A-Za-z0-9]{4}-\d{1,8}$/;

/**
 * Each anticipo deducted (cac:PrepaidPayment) and its document: SUNAT's layout names it in a
 * cac:AdditionalDocumentReference of type 02 or 03 whose cbc:DocumentStatusCode is the payment's cbc:ID; some
 * issuers write the series and number in the payment's cbc:ID itself.
 */
function readPrepayments(root: XmlElement): DocumentPrepayment[] {
  const payments = counted(childrenOf(root, NS.cac, 'PrepaidPayment'), FIELD.prepayment, COUNT_LIMITS.prepayments);
  const documents = new Map<string, string>();
  for (const reference of childrenOf(root, NS.cac, 'AdditionalDocumentReference')) {
    const type = textOf(childOf(reference, NS.cbc, 'DocumentTypeCode'));
    const status = textOf(childOf(reference, NS.cbc, 'DocumentStatusCode'));
    const id = textOf(childOf(reference, NS.cbc, 'ID'));
    if (type !== undefined && PREPAYMENT_DOCUMENT_TYPES.has(type) && status !== undefined && id !== undefined) {
      documents.set(status, id);
    }
  }
  return payments.map((payment) => {
    const id = textOf(childOf(payment, NS.cbc, 'ID'));
    const named = id === undefined ? undefined : (documents.get(id) ?? (SERIES_AND_NUMBER.test(id) ? id : undefined));
    return {
      documentId: bounded(named, FIELD.prepayment, TEXT_LIMITS.documentId) ?? null,
      amount: required(
        amountOf(childOf(payment, NS.cbc, 'PaidAmount'), FIELD.prepaymentAmount),
        FIELD.prepaymentAmount,
      ),
    };
  });
}

/** Lines, and how many of them carry the price type of a line given free (catálogo 16 code 02). */
function linesGivenFree(root: XmlElement): { lines: number; free: number } {
  const lines = LINES.flatMap((local) => childrenOf(root, NS.cac, local));
  const free = lines.filter((line) =>
    allOf(line, cac('PricingReference'), cac('AlternativeConditionPrice'), cbc('PriceTypeCode')).some(
      (code) => textOf(code) === PRICE_TYPE_FREE_OF_CHARGE,
    ),
  ).length;
  return { lines: lines.length, free };
}

function inconsistent(field: string, stated: number, computed: number, currency: Currency): BadRequestError {
  return new BadRequestError('ERROR_XML_INCONSISTENT_AMOUNTS', {
    field,
    stated: formatMoney(stated, currency),
    computed: formatMoney(computed, currency),
  });
}

interface DocumentAmounts {
  readonly saleValue: number | null;
  readonly taxes: DocumentTaxes;
  readonly allowances: DocumentAllowanceCharge[];
  readonly charges: DocumentAllowanceCharge[];
  readonly prepaidAmount: number;
  readonly prepayments: DocumentPrepayment[];
  readonly freeOfCharge: boolean;
  readonly freeOfChargeValue: number;
}

/**
 * Reads the amounts beyond the total and refuses those that do not add up as SUNAT requires:
 * - the importe total is the total precio de venta plus charges, minus discounts and anticipos, plus the
 *   rounding, within one unit (SUNAT rule 3280; checked when the total precio de venta is given); on a recibo
 *   por honorarios the net paid may also be that less its retención, when no discount already took it;
 * - the anticipos total is the sum of the anticipos (rule 2509);
 * - an importe total of 0.00 on a factura, boleta or recibo is explained by a transferencia gratuita or by
 *   anticipos; a document whose every line is given free charges nothing but the ICBPER of its bags.
 */
export function readAmounts(
  root: XmlElement,
  kind: ReturnType<typeof rootKind>,
  context: { igv: number; payableAmount: number; currency: Currency; recibo: boolean; withheld: number },
): DocumentAmounts {
  const total = monetaryTotalOf(root, kind);
  const taxes = readTaxes(root, context.igv);
  const { allowances, charges } = readAllowanceCharges(root, context.recibo);
  const prepayments = readPrepayments(root);
  const statedPrepaid = amountOf(childOf(total, NS.cbc, 'PrepaidAmount'), FIELD.prepaidAmount);
  const paid = sum(prepayments.map((prepayment) => prepayment.amount));
  if (statedPrepaid !== undefined && prepayments.length > 0 && cents(statedPrepaid) !== cents(paid)) {
    throw inconsistent(FIELD.prepaidAmount, statedPrepaid, paid, context.currency);
  }
  const prepaidAmount = statedPrepaid ?? paid;

  const taxInclusive = amountOf(childOf(total, NS.cbc, 'TaxInclusiveAmount'), FIELD.taxInclusiveAmount);
  if (taxInclusive !== undefined) {
    const computed =
      (cents(taxInclusive) +
        cents(amountOf(childOf(total, NS.cbc, 'ChargeTotalAmount'), FIELD.chargeTotal) ?? 0) -
        cents(amountOf(childOf(total, NS.cbc, 'AllowanceTotalAmount'), FIELD.allowanceTotal) ?? 0) -
        cents(prepaidAmount) +
        cents(signedAmountOf(childOf(total, NS.cbc, 'PayableRoundingAmount'), FIELD.rounding) ?? 0)) /
      100;
    const within = (expected: number) =>
      Math.abs(cents(context.payableAmount) - cents(expected)) <= cents(SUNAT_TOTALS_TOLERANCE);
    const net = (cents(computed) - cents(context.withheld)) / 100;
    if (!within(computed) && !(context.recibo && within(net))) {
      throw inconsistent(FIELD.payableAmount, context.payableAmount, computed, context.currency);
    }
  }

  const freeOfChargeValue = taxableOfScheme(root, TAX_SCHEME.FREE_OF_CHARGE, FIELD.freeOfChargeValue);
  const lines = linesGivenFree(root);
  const legend = childrenOf(root, NS.cbc, 'Note').some(
    (note) => note.attributes.get('languageLocaleID')?.trim() === LEGEND_FREE_OF_CHARGE,
  );
  const givenFree = freeOfChargeValue > 0 || lines.free > 0 || legend;
  if (lines.lines > 0 && lines.free === lines.lines) {
    // Bags given free still pay the ICBPER (Ley 30884): nothing else may be charged.
    const chargeable = taxes.icbper;
    if (cents(context.payableAmount) - cents(chargeable) > cents(SUNAT_TOTALS_TOLERANCE)) {
      throw inconsistent(FIELD.payableAmount, context.payableAmount, chargeable, context.currency);
    }
  }
  if (kind === 'Invoice' && context.payableAmount === 0 && !givenFree && prepaidAmount === 0) {
    throw new BadRequestError('ERROR_XML_ZERO_TOTAL_UNEXPLAINED');
  }
  return {
    saleValue: amountOf(childOf(total, NS.cbc, 'LineExtensionAmount'), FIELD.saleValue) ?? null,
    taxes,
    allowances,
    charges,
    prepaidAmount,
    prepayments,
    freeOfCharge: context.payableAmount === 0 && givenFree,
    freeOfChargeValue,
  };
}

/** Catálogo 51 operation types of the SPOT: 1001 and the special cases 1002–1004. */
const DETRACTION_OPERATION = /^100[1-4]$/;

/**
 * The detracción (SPOT, D. Leg. 940): cac:PaymentTerms with cbc:ID Detraccion (catálogo 54 code in
 * cbc:PaymentMeansID, cbc:PaymentPercent, cbc:Amount) and the supplier's account in the cac:PaymentMeans of the
 * same id. An operation type of the SPOT without those terms is a document missing its detracción.
 */
export function readDetraction(root: XmlElement): ParsedDetraction | null {
  const typeCode = childOf(root, NS.cbc, 'InvoiceTypeCode');
  const operationType =
    bounded(typeCode?.attributes.get('listID')?.trim() || undefined, FIELD.detraction, TEXT_LIMITS.code) ?? null;
  const isDetraction = (element: XmlElement) => normalised(textOf(childOf(element, NS.cbc, 'ID'))) === 'detraccion';
  const terms = childrenOf(root, NS.cac, 'PaymentTerms').filter(isDetraction);
  if (terms.length === 0) {
    if (operationType !== null && DETRACTION_OPERATION.test(operationType)) throw missing(FIELD.detraction);
    return null;
  }
  if (terms.length > 1) throw invalid(FIELD.detraction);
  const term = terms[0]!;
  const code = required(
    bounded(textOf(childOf(term, NS.cbc, 'PaymentMeansID')), FIELD.detractionCode, TEXT_LIMITS.code),
    FIELD.detractionCode,
  );
  if (!/^\d{3}$/.test(code)) throw invalid(FIELD.detractionCode);
  const percentText = required(textOf(childOf(term, NS.cbc, 'PaymentPercent')), FIELD.detractionPercent);
  const percent = /^\d{1,3}(\.\d{1,5})?$/.test(percentText) ? Number(percentText) : NaN;
  if (!(percent > 0 && percent <= 100)) throw invalid(FIELD.detractionPercent);
  const amountElement = childOf(term, NS.cbc, 'Amount');
  const amount = required(amountOf(amountElement, FIELD.detractionAmount), FIELD.detractionAmount);
  const currency = amountElement?.attributes.get('currencyID')?.trim() || 'PEN';
  const allowed = CURRENCIES.find((each) => each === currency);
  if (!allowed) throw invalid(FIELD.detractionAmount);
  const means = childrenOf(root, NS.cac, 'PaymentMeans').find(isDetraction);
  const account = bounded(
    textOf(pathOf(means, cac('PayeeFinancialAccount'), cbc('ID'))),
    FIELD.detractionAccount,
    TEXT_LIMITS.sapDocumentId,
  );
  return {
    operationType,
    code,
    percent: Math.round(percent * 100) / 100,
    amount,
    currency: allowed,
    account: account ?? null,
  };
}
