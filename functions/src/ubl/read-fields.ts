import { BadRequestError, MAX_AMOUNT, MAX_AMOUNT_TEXT, TAX_SCHEME } from '@portal/shared';
import { NS } from './namespaces.js';
import type { ParsedDocumentType } from './parsed-document.js';
import { allOf, childOf, pathOf, textOf, type XmlElement } from './xml-tree.js';

/* The steps, field names, limits and number readings every part of a SUNAT document's reading shares. */

type Step = [uri: string, local: string];
export const cac = (local: string): Step => [NS.cac, local];
export const cbc = (local: string): Step => [NS.cbc, local];
export const ext = (local: string): Step => [NS.ext, local];
export const sac = (local: string): Step => [NS.sac, local];

/** The Spanish names of the fields, as a person reads them in ERROR_XML_MISSING_FIELD / _INVALID_FIELD. */
export const FIELD = {
  id: 'serie y número',
  invoiceTypeCode: 'tipo de comprobante',
  issueDate: 'fecha de emisión',
  dueDate: 'fecha de vencimiento',
  currency: 'moneda',
  supplierTaxId: 'RUC del emisor',
  supplierName: 'razón social del emisor',
  customerTaxId: 'documento de identidad del adquirente',
  customerName: 'nombre o razón social del adquirente',
  customerTaxIdType: 'tipo de documento de identidad del adquirente',
  purchaseOrder: 'orden de compra',
  installment: 'cuota',
  ublVersion: 'versión UBL',
  taxAmount: 'monto del IGV',
  withholding: 'retención del impuesto a la renta',
  payableAmount: 'importe total',
  billingReference: 'comprobante que se modifica',
  noteReason: 'motivo de la nota',
  paymentTerms: 'forma de pago',
  installmentAmount: 'monto de la cuota',
  installmentDueDate: 'fecha de vencimiento de la cuota',
  operationType: 'tipo de operación',
  saleValue: 'valor de venta',
  iscAmount: 'monto del ISC',
  icbperAmount: 'monto del ICBPER',
  otherTaxAmount: 'monto de otros tributos',
  freeOfChargeValue: 'valor de las operaciones gratuitas',
  allowanceCharge: 'cargo o descuento global',
  allowanceChargeIndicator: 'indicador de cargo o descuento global',
  allowanceChargeAmount: 'monto del cargo o descuento global',
  prepayment: 'anticipo',
  prepaymentAmount: 'monto del anticipo',
  prepaidAmount: 'total de anticipos',
  taxInclusiveAmount: 'total precio de venta',
  allowanceTotal: 'total de descuentos',
  chargeTotal: 'total de cargos',
  rounding: 'redondeo del importe total',
  detraction: 'detracción',
  detractionCode: 'código de bien o servicio sujeto a detracción',
  detractionPercent: 'porcentaje de detracción',
  detractionAmount: 'monto de la detracción',
  detractionAccount: 'cuenta de detracciones',
} as const;

export const IGV_SCHEME = TAX_SCHEME.IGV;
export const INCOME_TAX_SCHEME = TAX_SCHEME.INCOME_TAX;
export const RUC_SCHEME = '6';
/** Identity documents read per party: a party names itself in a few places, never in dozens. */
export const MAX_PARTY_IDS = 20;

/** Catálogo 01 codes of the invoices we read; R1 is SUNAT's code for the recibo por honorarios elsewhere. */
export const INVOICE_TYPE_CODES: Record<string, ParsedDocumentType> = {
  '01': 'FACTURA',
  '02': 'RECIBO_POR_HONORARIOS',
  R1: 'RECIBO_POR_HONORARIOS',
  '03': 'BOLETA',
};

/**
 * SUNAT's catálogo 12 has no code for a purchase order, so beside cac:OrderReference we take the
 * UN/CEFACT 1001 codes issuers use for one (105 purchase order, 220 order) or a document type that names it.
 */
export const PURCHASE_ORDER_TYPE_CODES = new Set(['105', '220']);
export const PURCHASE_ORDER_TYPE_NAME = /^(orden de compra|purchase order|OC)$/i;

const ROOTS = [
  { uri: NS.invoice, local: 'Invoice' },
  { uri: NS.creditNote, local: 'CreditNote' },
  { uri: NS.debitNote, local: 'DebitNote' },
] as const;

export const LINES = ['InvoiceLine', 'CreditNoteLine', 'DebitNoteLine'] as const;

/**
 * The one path kept inside the document's ext:UBLExtensions, each element by the one child kept below it: UBL
 * 2.0's totals by kind (sac:AdditionalMonetaryTotal, catálogo 14). The signature beside them is not kept.
 */
const EXTENSION_PATH = new Map<string, Step>([
  [`${NS.ext} UBLExtensions`, ext('UBLExtension')],
  [`${NS.ext} UBLExtension`, ext('ExtensionContent')],
  [`${NS.ext} ExtensionContent`, sac('AdditionalInformation')],
  [`${NS.sac} AdditionalInformation`, sac('AdditionalMonetaryTotal')],
]);

/**
 * Parts of a document that hold nothing we read; the tree reader counts but does not keep them. Of the
 * extensions only the totals by kind are kept (EXTENSION_PATH), of a line only its price types
 * (cac:PricingReference, catálogo 16): whether it is given free of charge.
 */
export function isUnreadContent(
  uri: string,
  local: string,
  parent?: { readonly uri: string; readonly local: string },
): boolean {
  if (uri === NS.ext && local === 'UBLExtensions') {
    return !ROOTS.some((root) => root.uri === parent?.uri && root.local === parent.local);
  }
  if (parent) {
    const kept = EXTENSION_PATH.get(`${parent.uri} ${parent.local}`);
    if (kept) return !(kept[0] === uri && kept[1] === local);
    if (parent.uri === NS.sac && parent.local === 'AdditionalMonetaryTotal') return uri !== NS.cbc;
  }
  if (parent?.uri === NS.cac && (LINES as readonly string[]).includes(parent.local)) {
    return !(uri === NS.cac && local === 'PricingReference');
  }
  return false;
}

export function missing(field: string): BadRequestError {
  return new BadRequestError('ERROR_XML_MISSING_FIELD', { field });
}

export function invalid(field: string): BadRequestError {
  return new BadRequestError('ERROR_XML_INVALID_FIELD', { field });
}

/** A text the portal keeps or looks up, within its limit (docs/limits.md); undefined stays undefined. */
export function bounded(value: string | undefined, field: string, limit: number): string | undefined {
  if (value !== undefined && value.length > limit) {
    throw new BadRequestError('ERROR_XML_FIELD_TOO_LONG', { field, limit });
  }
  return value;
}

/** At most `limit` repetitions of a datum. */
export function counted<T>(values: T[], field: string, limit: number): T[] {
  if (values.length > limit) throw new BadRequestError('ERROR_XML_TOO_MANY_ITEMS', { field, limit });
  return values;
}

/** An amount within MAX_AMOUNT: beyond it a document is not one the group pays (and would lose its cents). */
export function withinMaximum(amount: number, field: string): number {
  if (amount > MAX_AMOUNT) {
    throw new BadRequestError('ERROR_INVOICE_AMOUNT_OUT_OF_RANGE', { field, limit: MAX_AMOUNT_TEXT });
  }
  return amount;
}

export function required<T>(value: T | undefined, field: string): T {
  if (value === undefined) throw missing(field);
  return value;
}

export function amountOf(element: XmlElement | undefined, field: string): number | undefined {
  const raw = textOf(element);
  if (raw === undefined) return undefined;
  if (/^-\d+(\.\d+)?$/.test(raw) && Number(raw) !== 0) {
    throw new BadRequestError('ERROR_XML_NEGATIVE_AMOUNT', { field, amount: raw });
  }
  if (!/^-?\d+(\.\d+)?$/.test(raw)) throw invalid(field);
  return withinMaximum(Math.round(Math.abs(Number(raw)) * 100) / 100, field);
}

/** xs:date as yyyy-mm-dd; a time zone suffix, which xs:date allows, is dropped. */
export function dateOf(element: XmlElement | undefined, field: string): string | undefined {
  const raw = textOf(element);
  if (raw === undefined) return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:Z|[+-]\d{2}:\d{2})?$/.exec(raw);
  if (!match) throw invalid(field);
  const [, year, month, day] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (date.getUTCMonth() !== Number(month) - 1 || date.getUTCDate() !== Number(day)) throw invalid(field);
  return `${year}-${month}-${day}`;
}

/** "F001-00000123" → series and correlative, as written. */
export function seriesAndNumber(raw: string, field: string): { prefixId: string; numericId: string } {
  const match = /^([A-Za-z0-9]+)\s*-\s*(\d+)$/.exec(raw);
  if (!match) throw invalid(field);
  return { prefixId: match[1]!, numericId: match[2]! };
}

export function rootKind(root: XmlElement): 'Invoice' | 'CreditNote' | 'DebitNote' {
  const known = ROOTS.find((each) => each.uri === root.uri && each.local === root.local);
  if (!known) throw new BadRequestError('ERROR_XML_UNSUPPORTED_DOCUMENT');
  return known.local;
}

export function taxOfScheme(root: XmlElement, scheme: string, field: string): { amount: number; found: boolean } {
  let amount = 0;
  let found = false;
  for (const subtotal of allOf(root, cac('TaxTotal'), cac('TaxSubtotal'))) {
    if (textOf(pathOf(subtotal, cac('TaxCategory'), cac('TaxScheme'), cbc('ID'))) !== scheme) continue;
    found = true;
    amount += required(amountOf(childOf(subtotal, NS.cbc, 'TaxAmount'), field), field);
  }
  return { amount: withinMaximum(Math.round(amount * 100) / 100, field), found };
}

export const cents = (amount: number) => Math.round(amount * 100);
export const sum = (amounts: readonly number[]) => amounts.reduce((total, amount) => total + cents(amount), 0) / 100;
