import {
  BadRequestError,
  COUNT_LIMITS,
  CURRENCIES,
  FOURTH_CATEGORY_WITHHOLDING,
  LEGEND_FREE_OF_CHARGE,
  MAX_AMOUNT,
  MAX_AMOUNT_TEXT,
  PRICE_TYPE_FREE_OF_CHARGE,
  TAX_SCHEME,
  TEXT_LIMITS,
  allowanceChargeCodeOf,
  formatMoney,
  isValidRuc,
  taxSchemeOf,
  type Currency,
  type DocumentAllowanceCharge,
  type DocumentPrepayment,
  type DocumentTaxes,
} from '@portal/shared';
import { NS } from './namespaces.js';
import type {
  ParsedDetraction,
  ParsedDocument,
  ParsedDocumentReference,
  ParsedDocumentType,
  ParsedInstallment,
  ParsedParty,
  ParsedPaymentTerms,
} from './parsed-document.js';
import { allOf, childOf, childrenOf, pathOf, textOf, type XmlElement } from './xml-tree.js';

/*
 * Reads the fields the portal needs from the element tree of a SUNAT document, in both layouts in
 * circulation: UBL 2.1 (SUNAT's current guides) and UBL 2.0 (documents issued before 2019, still sent for
 * late payments and notes), which names the parties with cbc:CustomerAssignedAccountID and
 * cbc:AdditionalAccountID and sometimes omits cbc:InvoiceTypeCode.
 *
 * Recibo por honorarios electrónico (RHE). SUNAT issues it only on SEE-SOL, in series E001, and lets both
 * parties download its XML. We found neither SUNAT's schema for that XML nor a public sample of it, so the
 * reading below is modelled on what is known of the document rather than on a schema: a UBL Invoice (2.0
 * layout) in ISO-8859-1, issued by a person with a RUC starting with 10, without IGV (honorarios are 4ta
 * categoría income, not a sale), the total honorarios in cac:LegalMonetaryTotal, the retención del impuesto a
 * la renta de 4ta categoría (8 %) and the net paid to the issuer as cbc:PayableAmount. Its type code is
 * SUNAT's '02' (catálogo 01) or 'R1' (the code SUNAT's validity service uses for it), but SOL may write a
 * factura's '01' on it: `isHonorarios` tells such a document, or one without a code, from a factura by what it
 * says of itself, and `readWithholding` reads the retención in each shape we accept. What was modelled, and
 * from which source, is in docs/ap-documents.md («Recibo por honorarios electrónico»).
 */

type Step = [uri: string, local: string];
const cac = (local: string): Step => [NS.cac, local];
const cbc = (local: string): Step => [NS.cbc, local];
const ext = (local: string): Step => [NS.ext, local];
const sac = (local: string): Step => [NS.sac, local];

/** The Spanish names of the fields, as a person reads them in ERROR_XML_MISSING_FIELD / _INVALID_FIELD. */
const FIELD = {
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

const IGV_SCHEME = TAX_SCHEME.IGV;
const INCOME_TAX_SCHEME = TAX_SCHEME.INCOME_TAX;
const RUC_SCHEME = '6';
/** Identity documents read per party: a party names itself in a few places, never in dozens. */
const MAX_PARTY_IDS = 20;

/** Catálogo 01 codes of the invoices we read; R1 is SUNAT's code for the recibo por honorarios elsewhere. */
const INVOICE_TYPE_CODES: Record<string, ParsedDocumentType> = {
  '01': 'FACTURA',
  '02': 'RECIBO_POR_HONORARIOS',
  R1: 'RECIBO_POR_HONORARIOS',
  '03': 'BOLETA',
};

/**
 * SUNAT's catálogo 12 has no code for a purchase order, so beside cac:OrderReference we take the
 * UN/CEFACT 1001 codes issuers use for one (105 purchase order, 220 order) or a document type that names it.
 */
const PURCHASE_ORDER_TYPE_CODES = new Set(['105', '220']);
const PURCHASE_ORDER_TYPE_NAME = /^(orden de compra|purchase order|OC)$/i;

const ROOTS = [
  { uri: NS.invoice, local: 'Invoice' },
  { uri: NS.creditNote, local: 'CreditNote' },
  { uri: NS.debitNote, local: 'DebitNote' },
] as const;

const LINES = ['InvoiceLine', 'CreditNoteLine', 'DebitNoteLine'] as const;

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

function missing(field: string): BadRequestError {
  return new BadRequestError('ERROR_XML_MISSING_FIELD', { field });
}

function invalid(field: string): BadRequestError {
  return new BadRequestError('ERROR_XML_INVALID_FIELD', { field });
}

/** A text the portal keeps or looks up, within its limit (docs/limits.md); undefined stays undefined. */
function bounded(value: string | undefined, field: string, limit: number): string | undefined {
  if (value !== undefined && value.length > limit) {
    throw new BadRequestError('ERROR_XML_FIELD_TOO_LONG', { field, limit });
  }
  return value;
}

/** At most `limit` repetitions of a datum. */
function counted<T>(values: T[], field: string, limit: number): T[] {
  if (values.length > limit) throw new BadRequestError('ERROR_XML_TOO_MANY_ITEMS', { field, limit });
  return values;
}

/** An amount within MAX_AMOUNT: beyond it a document is not one the group pays (and would lose its cents). */
function withinMaximum(amount: number, field: string): number {
  if (amount > MAX_AMOUNT) {
    throw new BadRequestError('ERROR_INVOICE_AMOUNT_OUT_OF_RANGE', { field, limit: MAX_AMOUNT_TEXT });
  }
  return amount;
}

function required<T>(value: T | undefined, field: string): T {
  if (value === undefined) throw missing(field);
  return value;
}

function amountOf(element: XmlElement | undefined, field: string): number | undefined {
  const raw = textOf(element);
  if (raw === undefined) return undefined;
  if (/^-\d+(\.\d+)?$/.test(raw) && Number(raw) !== 0) {
    throw new BadRequestError('ERROR_XML_NEGATIVE_AMOUNT', { field, amount: raw });
  }
  if (!/^-?\d+(\.\d+)?$/.test(raw)) throw invalid(field);
  return withinMaximum(Math.round(Math.abs(Number(raw)) * 100) / 100, field);
}

/** xs:date as yyyy-mm-dd; a time zone suffix, which xs:date allows, is dropped. */
function dateOf(element: XmlElement | undefined, field: string): string | undefined {
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
function seriesAndNumber(raw: string, field: string): { prefixId: string; numericId: string } {
  const match = /^([A-Za-z0-9]+)\s*-\s*(\d+)$/.exec(raw);
  if (!match) throw invalid(field);
  return { prefixId: match[1]!, numericId: match[2]! };
}

function rootKind(root: XmlElement): 'Invoice' | 'CreditNote' | 'DebitNote' {
  const known = ROOTS.find((each) => each.uri === root.uri && each.local === root.local);
  if (!known) throw new BadRequestError('ERROR_XML_UNSUPPORTED_DOCUMENT');
  return known.local;
}

function taxOfScheme(root: XmlElement, scheme: string, field: string): { amount: number; found: boolean } {
  let amount = 0;
  let found = false;
  for (const subtotal of allOf(root, cac('TaxTotal'), cac('TaxSubtotal'))) {
    if (textOf(pathOf(subtotal, cac('TaxCategory'), cac('TaxScheme'), cbc('ID'))) !== scheme) continue;
    found = true;
    amount += required(amountOf(childOf(subtotal, NS.cbc, 'TaxAmount'), field), field);
  }
  return { amount: withinMaximum(Math.round(amount * 100) / 100, field), found };
}

interface PartyId {
  id: string;
  scheme: string | null;
}

/** Identity documents of a party, in the order the layouts are tried: 2.1, PartyTaxScheme, legal entity, 2.0. */
function partyIds(holder: XmlElement | undefined, field: string): PartyId[] {
  if (!holder) return [];
  const party = childOf(holder, NS.cac, 'Party');
  const ids: PartyId[] = [];
  const add = (element: XmlElement, scheme: string | undefined) => {
    const id = textOf(element);
    if (id !== undefined) ids.push({ id, scheme: scheme?.trim() || null });
    if (ids.length > MAX_PARTY_IDS)
      throw new BadRequestError('ERROR_XML_TOO_MANY_ITEMS', { field, limit: MAX_PARTY_IDS });
  };
  if (party) {
    for (const element of allOf(party, cac('PartyIdentification'), cbc('ID'))) {
      add(element, element.attributes.get('schemeID'));
    }
    for (const element of [
      ...allOf(party, cac('PartyTaxScheme'), cbc('CompanyID')),
      ...allOf(party, cac('PartyLegalEntity'), cbc('CompanyID')),
    ]) {
      add(element, element.attributes.get('schemeID'));
    }
  }
  const legacy = childOf(holder, NS.cbc, 'CustomerAssignedAccountID');
  if (legacy) add(legacy, textOf(childOf(holder, NS.cbc, 'AdditionalAccountID')));
  return ids;
}

function partyName(holder: XmlElement | undefined, field: string): string | undefined {
  const party = childOf(holder, NS.cac, 'Party');
  return bounded(
    textOf(pathOf(party, cac('PartyLegalEntity'), cbc('RegistrationName'))) ??
      textOf(pathOf(party, cac('PartyTaxScheme'), cbc('RegistrationName'))) ??
      textOf(pathOf(party, cac('PartyName'), cbc('Name'))),
    field,
    TEXT_LIMITS.partyName,
  );
}

function readSupplier(root: XmlElement): ParsedParty {
  const holder = childOf(root, NS.cac, 'AccountingSupplierParty');
  const ids = partyIds(holder, FIELD.supplierTaxId);
  const ruc =
    ids.find((each) => each.scheme === RUC_SCHEME) ??
    ids.find((each) => each.scheme === null && /^\d{11}$/.test(each.id));
  if (!ruc) throw missing(FIELD.supplierTaxId);
  if (!isValidRuc(ruc.id)) throw invalid(FIELD.supplierTaxId);
  return {
    taxId: ruc.id,
    taxIdType: RUC_SCHEME,
    name: required(partyName(holder, FIELD.supplierName), FIELD.supplierName),
  };
}

function readCustomer(root: XmlElement): ParsedParty {
  const holder = childOf(root, NS.cac, 'AccountingCustomerParty');
  const ids = partyIds(holder, FIELD.customerTaxId);
  // A boleta's customer may be identified by DNI, or not at all ("-" with scheme 0 or "-").
  const chosen = ids.find((each) => each.scheme === RUC_SCHEME) ?? ids[0];
  if (!chosen) throw missing(FIELD.customerTaxId);
  if (chosen.scheme === RUC_SCHEME && !isValidRuc(chosen.id)) throw invalid(FIELD.customerTaxId);
  return {
    taxId: bounded(chosen.id, FIELD.customerTaxId, TEXT_LIMITS.partyTaxId)!,
    taxIdType: bounded(chosen.scheme ?? undefined, FIELD.customerTaxIdType, TEXT_LIMITS.code) ?? null,
    name: required(partyName(holder, FIELD.customerName), FIELD.customerName),
  };
}

function readType(
  root: XmlElement,
  kind: ReturnType<typeof rootKind>,
  prefixId: string,
  isRecibo: () => boolean,
): ParsedDocumentType {
  if (kind === 'CreditNote') return 'NOTA_DE_CREDITO';
  if (kind === 'DebitNote') return 'NOTA_DE_DEBITO';
  const code = bounded(textOf(childOf(root, NS.cbc, 'InvoiceTypeCode')), FIELD.invoiceTypeCode, TEXT_LIMITS.code);
  if (code !== undefined) {
    const type = INVOICE_TYPE_CODES[code];
    if (!type) throw new BadRequestError('ERROR_XML_UNSUPPORTED_DOCUMENT');
    // SEE-SOL may write a factura's code on a recibo por honorarios: the document's own content tells.
    return type === 'FACTURA' && isRecibo() ? 'RECIBO_POR_HONORARIOS' : type;
  }
  // Some UBL 2.0 invoices carry no type code: the series tells (EB01 is SEE-SOL's boleta series).
  const series = prefixId.toUpperCase();
  if (series.startsWith('F')) return 'FACTURA';
  if (series.startsWith('B') || series === 'EB01') return 'BOLETA';
  if (series.startsWith('E')) return isRecibo() ? 'RECIBO_POR_HONORARIOS' : 'FACTURA';
  throw missing(FIELD.invoiceTypeCode);
}

/** SEE-SOL's one series of recibos por honorarios (and of its facturas); EB01, its boletas', is not it. */
const SOL_SERIES = 'E001';
/** A natural person's RUC. Only a person earns the 4ta categoría income a recibo por honorarios bills. */
const NATURAL_PERSON_RUC = /^10\d{9}$/;
/** Schemes of the IGV charged (catálogo 05), and of the excises only a sale bears. */
const IGV_CHARGED_SCHEMES = new Set<string>([TAX_SCHEME.IGV, TAX_SCHEME.IVAP]);
const EXCISE_SCHEMES = new Set<string>([TAX_SCHEME.ISC, TAX_SCHEME.ICBPER]);
/** Schemes of a sale's value without IGV: exported, given free, exonerated, unaffected (catálogo 05). */
const IGV_TREATMENT_SCHEMES = new Set<string>([
  TAX_SCHEME.EXPORT,
  TAX_SCHEME.FREE_OF_CHARGE,
  TAX_SCHEME.EXEMPT,
  TAX_SCHEME.UNAFFECTED,
]);
/** Catálogo 14 (UBL 2.0's totals by kind): 1001 taxed sales; 1000, 1002–1004 exported, unaffected, exempt, free. */
const ADDITIONAL_TOTAL_TAXED = '1001';
const ADDITIONAL_TOTALS_WITHOUT_IGV = new Set(['1000', '1002', '1003', '1004']);
/** Catálogo 14: the total of retenciones. */
const ADDITIONAL_TOTAL_WITHHELD = '2002';

/** What a document says of the IGV. */
interface IgvEvidence {
  /** IGV or IVAP charged, or a value taxed with them; ISC or ICBPER; UBL 2.0's total of taxed sales. */
  readonly charged: boolean;
  /** A sale's value kept apart by its IGV treatment (exported, free, exonerated, unaffected), no IGV charged. */
  readonly treated: boolean;
}

/** UBL 2.0's totals by kind: ext:UBLExtensions/…/sac:AdditionalInformation/sac:AdditionalMonetaryTotal. */
function additionalMonetaryTotals(root: XmlElement): XmlElement[] {
  return allOf(
    root,
    ext('UBLExtensions'),
    ext('UBLExtension'),
    ext('ExtensionContent'),
    sac('AdditionalInformation'),
    sac('AdditionalMonetaryTotal'),
  );
}

/** Above zero, as written; an amount that is not a number is not evidence of anything (nor refused here). */
const positive = (element: XmlElement | undefined) => Number(textOf(element)) > 0;

function readIgvEvidence(root: XmlElement): IgvEvidence {
  let charged = false;
  let treated = false;
  for (const subtotal of allOf(root, cac('TaxTotal'), cac('TaxSubtotal'))) {
    const scheme = textOf(pathOf(subtotal, cac('TaxCategory'), cac('TaxScheme'), cbc('ID')));
    if (scheme === undefined) continue;
    const tax = positive(childOf(subtotal, NS.cbc, 'TaxAmount'));
    const value = tax || positive(childOf(subtotal, NS.cbc, 'TaxableAmount'));
    if ((IGV_CHARGED_SCHEMES.has(scheme) && value) || (EXCISE_SCHEMES.has(scheme) && tax)) charged = true;
    if (IGV_TREATMENT_SCHEMES.has(scheme) && value) treated = true;
  }
  for (const total of additionalMonetaryTotals(root)) {
    const id = textOf(childOf(total, NS.cbc, 'ID'));
    if (id === undefined || !positive(childOf(total, NS.cbc, 'PayableAmount'))) continue;
    if (id === ADDITIONAL_TOTAL_TAXED) charged = true;
    if (ADDITIONAL_TOTALS_WITHOUT_IGV.has(id)) treated = true;
  }
  return { charged, treated };
}

/**
 * Whether an invoice typed as a factura ('01'), or not typed, is a recibo por honorarios electrónico, by what
 * the document says of itself (sources in docs/ap-documents.md):
 * - its series is SEE-SOL's (E001), the only system that issues an RHE; any other series is a factura's;
 * - its issuer is a natural person: the supplier's RUC (cbc:ID or cbc:CompanyID of schemeID 6, or UBL 2.0's
 *   cbc:CustomerAssignedAccountID with cbc:AdditionalAccountID 6) starts with 10. A company's RUC (20) never
 *   issues one, whatever else its document says;
 * - it charges no IGV, ISC nor ICBPER: a person's factura with IGV stays a factura;
 * - a sale's value kept apart by its IGV treatment (exonerated, unaffected, exported, free: schemes 9995–9998,
 *   catálogo 14 1000 and 1002–1004) makes it a factura too, unless the document states the retención de 4ta
 *   categoría in one of the shapes of `readWithholding`, which no factura carries.
 * Without any retención it is still a recibo por honorarios: none is withheld from one of S/ 1,500 or less.
 */
function isHonorarios(prefixId: string, supplier: ParsedParty, igv: IgvEvidence, withheld: () => boolean): boolean {
  if (prefixId.toUpperCase() !== SOL_SERIES || !NATURAL_PERSON_RUC.test(supplier.taxId)) return false;
  if (igv.charged) return false;
  return !igv.treated || withheld();
}

/** Lower case, no accents, punctuation nor repeated spaces: «Retención 4ta. Categoría» → «retencion 4ta categoria». */
function words(value: string | undefined): string {
  return (normalised(value) ?? '').replace(/[^a-z0-9]+/g, ' ').trim();
}

const hasWord = (text: string, word: string) => ` ${text} `.includes(` ${word} `);

/** A scheme of the impuesto a la renta: catálogo 05's 3000, or, without a code of that catálogo, named IR or renta. */
function isIncomeTaxScheme(scheme: XmlElement | undefined): boolean {
  const id = textOf(childOf(scheme, NS.cbc, 'ID'));
  if (id === INCOME_TAX_SCHEME) return true;
  if (id !== undefined && taxSchemeOf(id)) return false;
  const name = words(textOf(childOf(scheme, NS.cbc, 'Name')));
  return hasWord(name, 'ir') || hasWord(name, 'renta');
}

/** A text that states a retención of the renta: «retención» (never the IGV's), or «renta» of 4ta categoría. */
function statesRentaRetention(text: string | undefined): boolean {
  const said = words(text);
  if (hasWord(said, 'igv')) return false;
  return (
    ['retencion', 'retenciones', 'retenido', 'retenida'].some((word) => hasWord(said, word)) ||
    (hasWord(said, 'renta') && (hasWord(said, '4ta') || hasWord(said, 'cuarta')))
  );
}

/** A document-level deduction that states the renta's retención, and has no catálogo 53 code saying otherwise. */
function isRentaRetentionAllowance(element: XmlElement): boolean {
  const indicator = textOf(childOf(element, NS.cbc, 'ChargeIndicator'))?.toLowerCase();
  if (indicator !== 'false' && indicator !== '0') return false;
  if (allowanceChargeCodeOf(textOf(childOf(element, NS.cbc, 'AllowanceChargeReasonCode')))) return false;
  return childrenOf(element, NS.cbc, 'AllowanceChargeReason').some((reason) => statesRentaRetention(textOf(reason)));
}

/** The sum of what was found, or null when nothing was. */
function found(amounts: readonly number[]): number | null {
  return amounts.length === 0 ? null : withinMaximum(sum(amounts), FIELD.withholding);
}

const withheldAmount = (element: XmlElement | undefined) =>
  required(amountOf(element, FIELD.withholding), FIELD.withholding);

/**
 * Amounts written in a note (1,234.56 or 1234.56); a percentage (8 %, 8.00%) is not one. Only the first few
 * numbers of a note are looked at: a retención is stated in a line, not in a page of figures.
 */
function amountsIn(text: string): number[] {
  const amounts: number[] = [];
  let looked = 0;
  for (const match of text.matchAll(/\d[\d,.]*/g)) {
    if (++looked > MAX_NUMBERS_IN_NOTE) break;
    // Longer than any amount within MAX_AMOUNT: not one, and not worth a regular expression.
    if (match[0].length > MAX_AMOUNT_TEXT.length + 8) continue;
    let next = match.index + match[0].length;
    while (text[next] === ' ') next += 1;
    if (text[next] === '%') continue;
    const token = match[0].replace(/[.,]+$/, '');
    if (/^(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/.test(token)) amounts.push(Number(token.replaceAll(',', '')));
  }
  return amounts;
}
const MAX_NUMBERS_IN_NOTE = 20;

interface GrossAndNet {
  /** The honorarios before the retención: the monetary total's LineExtensionAmount, else its TaxInclusiveAmount. */
  readonly gross: number | undefined;
  readonly payable: number | undefined;
}

/** Whether the net paid is the gross less `withheld`, to the cent. */
const netOf = ({ gross, payable }: GrossAndNet, withheld: number) =>
  gross !== undefined && payable !== undefined && Math.abs(cents(gross) - cents(withheld) - cents(payable)) <= 1;

/**
 * The retención de 4ta categoría a document states, in the first of these shapes it has (sources and what was
 * modelled in docs/ap-documents.md):
 * 1. a header cac:TaxTotal/cac:TaxSubtotal of the renta: scheme 3000 (IR, catálogo 05), or a scheme named IR,
 *    RENTA, «Renta 4ta»… without a catálogo 05 code;
 * 2. a cac:WithholdingTaxTotal (UBL 2.1): its subtotals of the renta, and, on a recibo, those naming no scheme
 *    or, without subtotals, its cbc:TaxAmount;
 * and only on a recibo por honorarios, whose one retención is the renta's:
 * 3. document-level cac:AllowanceCharge deductions whose cbc:AllowanceChargeReason states it (no catálogo 53
 *    code has it; a deduction with a code of that catálogo is what its code says);
 * 4. UBL 2.0's sac:AdditionalMonetaryTotal of catálogo 14 code 2002 (retenciones);
 * 5. a cbc:Note stating it, with an amount that is the gross less the net paid (an amount the totals do not bear
 *    out is not taken);
 * 6. none stated, but a net paid (cbc:PayableAmount) that is the gross less 8 %, to the cent: the difference.
 * 0 when there is none, as on a recibo of S/ 1,500 or less.
 */
function readWithholding(root: XmlElement, recibo: boolean, totals: () => GrossAndNet): number {
  const subtotals = allOf(root, cac('TaxTotal'), cac('TaxSubtotal')).filter((subtotal) =>
    isIncomeTaxScheme(pathOf(subtotal, cac('TaxCategory'), cac('TaxScheme'))),
  );
  const explicit =
    found(subtotals.map((subtotal) => withheldAmount(childOf(subtotal, NS.cbc, 'TaxAmount')))) ??
    found(
      childrenOf(root, NS.cac, 'WithholdingTaxTotal').flatMap((total) => {
        const parts = childrenOf(total, NS.cac, 'TaxSubtotal');
        if (parts.length === 0) return recibo ? [withheldAmount(childOf(total, NS.cbc, 'TaxAmount'))] : [];
        return parts
          .filter((part) => {
            const scheme = pathOf(part, cac('TaxCategory'), cac('TaxScheme'));
            const unnamed = !textOf(childOf(scheme, NS.cbc, 'ID')) && !textOf(childOf(scheme, NS.cbc, 'Name'));
            return isIncomeTaxScheme(scheme) || (recibo && unnamed);
          })
          .map((part) => withheldAmount(childOf(part, NS.cbc, 'TaxAmount')));
      }),
    );
  if (explicit !== null || !recibo) return explicit ?? 0;

  const allowances = counted(
    childrenOf(root, NS.cac, 'AllowanceCharge'),
    FIELD.allowanceCharge,
    COUNT_LIMITS.allowanceCharges,
  ).filter(isRentaRetentionAllowance);
  const stated =
    found(allowances.map((allowance) => withheldAmount(childOf(allowance, NS.cbc, 'Amount')))) ??
    found(
      additionalMonetaryTotals(root)
        .filter((total) => textOf(childOf(total, NS.cbc, 'ID')) === ADDITIONAL_TOTAL_WITHHELD)
        .map((total) => withheldAmount(childOf(total, NS.cbc, 'PayableAmount'))),
    );
  if (stated !== null) return stated;

  const amounts = totals();
  for (const note of childrenOf(root, NS.cbc, 'Note')) {
    const text = textOf(note);
    if (text === undefined || !statesRentaRetention(text)) continue;
    const amount = amountsIn(text).find((each) => each > 0 && netOf(amounts, each));
    if (amount !== undefined) return withinMaximum(amount, FIELD.withholding);
  }
  const { gross, payable } = amounts;
  if (gross === undefined || payable === undefined || payable >= gross) return 0;
  const eightPercent = Math.round(cents(gross) * FOURTH_CATEGORY_WITHHOLDING.rate) / 100;
  return netOf(amounts, eightPercent) ? (cents(gross) - cents(payable)) / 100 : 0;
}

function readCurrency(root: XmlElement, payable: XmlElement | undefined): Currency {
  const amountCurrency = bounded(
    payable?.attributes.get('currencyID')?.trim() || undefined,
    FIELD.currency,
    TEXT_LIMITS.code,
  );
  const currency = required(
    bounded(textOf(childOf(root, NS.cbc, 'DocumentCurrencyCode')), FIELD.currency, TEXT_LIMITS.code) ?? amountCurrency,
    FIELD.currency,
  );
  const allowed = CURRENCIES.find((each) => each === currency);
  if (!allowed) throw new BadRequestError('ERROR_XML_UNSUPPORTED_CURRENCY', { currency });
  // SUNAT requires every amount in the document's currency; a total in another one is not a SUNAT document.
  if (amountCurrency !== undefined && amountCurrency !== allowed) throw invalid(FIELD.currency);
  return allowed;
}

function readPurchaseOrders(root: XmlElement): string[] {
  const fromOrders = allOf(root, cac('OrderReference'), cbc('ID')).map(textOf);
  const fromReferences = childrenOf(root, NS.cac, 'AdditionalDocumentReference')
    .filter((reference) => {
      const code = textOf(childOf(reference, NS.cbc, 'DocumentTypeCode'));
      const name = textOf(childOf(reference, NS.cbc, 'DocumentType'));
      return (
        (code !== undefined && PURCHASE_ORDER_TYPE_CODES.has(code)) ||
        (name !== undefined && PURCHASE_ORDER_TYPE_NAME.test(name))
      );
    })
    .map((reference) => textOf(childOf(reference, NS.cbc, 'ID')));
  const orders = [...fromOrders, ...fromReferences]
    .filter((order): order is string => order !== undefined)
    .map((order) => bounded(order, FIELD.purchaseOrder, TEXT_LIMITS.sapDocumentId)!);
  return counted([...new Set(orders)], FIELD.purchaseOrder, COUNT_LIMITS.purchaseOrders);
}

function readBillingReference(root: XmlElement): ParsedDocumentReference {
  const reference = pathOf(root, cac('BillingReference'), cac('InvoiceDocumentReference'));
  // UBL 2.0 notes also name the modified document in the discrepancy response.
  const raw = required(
    textOf(childOf(reference, NS.cbc, 'ID')) ?? textOf(pathOf(root, cac('DiscrepancyResponse'), cbc('ReferenceID'))),
    FIELD.billingReference,
  );
  const discrepancy = pathOf(root, cac('DiscrepancyResponse'));
  return {
    ...seriesAndNumber(bounded(raw, FIELD.billingReference, TEXT_LIMITS.documentId)!, FIELD.billingReference),
    typeCode:
      bounded(textOf(childOf(reference, NS.cbc, 'DocumentTypeCode')), FIELD.billingReference, TEXT_LIMITS.code) ?? null,
    reasonCode:
      bounded(textOf(childOf(discrepancy, NS.cbc, 'ResponseCode')), FIELD.noteReason, TEXT_LIMITS.code) ?? null,
    reasonDescription:
      bounded(
        textOf(childOf(discrepancy, NS.cbc, 'Description')),
        FIELD.noteReason,
        TEXT_LIMITS.noteReasonDescription,
      ) ?? null,
  };
}

/** "Crédito", "credito", "CREDITO" → "credito". */
function normalised(value: string | undefined): string | undefined {
  return value
    ?.normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

function readPaymentTerms(root: XmlElement): ParsedPaymentTerms | null {
  const terms = childrenOf(root, NS.cac, 'PaymentTerms').filter(
    (term) => normalised(textOf(childOf(term, NS.cbc, 'ID'))) === 'formapago',
  );
  if (terms.length === 0) return null;
  let method: ParsedPaymentTerms['method'] | undefined;
  let pendingAmount: number | null = null;
  const installments: ParsedInstallment[] = [];
  for (const term of terms) {
    const meansId = textOf(childOf(term, NS.cbc, 'PaymentMeansID'));
    const means = normalised(meansId);
    if (means === 'contado') {
      method = 'CONTADO';
    } else if (means === 'credito') {
      method = 'CREDITO';
      pendingAmount = amountOf(childOf(term, NS.cbc, 'Amount'), FIELD.paymentTerms) ?? null;
    } else if (meansId !== undefined && /^cuota\d+$/.test(means ?? '')) {
      installments.push({
        id: bounded(meansId, FIELD.installment, TEXT_LIMITS.code)!,
        amount: required(amountOf(childOf(term, NS.cbc, 'Amount'), FIELD.installmentAmount), FIELD.installmentAmount),
        dueDate: required(
          dateOf(childOf(term, NS.cbc, 'PaymentDueDate'), FIELD.installmentDueDate),
          FIELD.installmentDueDate,
        ),
      });
    } else {
      throw invalid(FIELD.paymentTerms);
    }
  }
  counted(installments, FIELD.installment, COUNT_LIMITS.installments);
  // Installments without the Crédito line still mean credit.
  return { method: method ?? (installments.length > 0 ? 'CREDITO' : 'CONTADO'), pendingAmount, installments };
}

function readDueDates(root: XmlElement, paymentTerms: ParsedPaymentTerms | null): string[] {
  const dates = [
    dateOf(childOf(root, NS.cbc, 'DueDate'), FIELD.dueDate),
    ...allOf(root, cac('PaymentMeans'), cbc('PaymentDueDate')).map((element) => dateOf(element, FIELD.dueDate)),
    ...allOf(root, cac('PaymentTerms'), cbc('PaymentDueDate')).map((element) => dateOf(element, FIELD.dueDate)),
    ...(paymentTerms?.installments.map((installment) => installment.dueDate) ?? []),
  ].filter((date): date is string => date !== undefined);
  return counted([...new Set(dates)].sort(), FIELD.dueDate, COUNT_LIMITS.dueDates);
}

/*
 * Every document SUNAT accepts, read right (issue 21; rules and sources in docs/ap-documents.md): the taxes
 * beside the IGV, the document-level discounts and charges (catálogo 53), the anticipos deducted, a
 * transferencia gratuita (scheme 9996, catálogo 16 price type 02, legend 1002), the operation type
 * (catálogo 51). Amounts that contradict each other the way SUNAT's own validation refuses are refused here too.
 */

/** SUNAT's tolerance, one unit of the currency either way, when it checks that the totals add up (rule 3280). */
const SUNAT_TOTALS_TOLERANCE = 1;

const cents = (amount: number) => Math.round(amount * 100);
const sum = (amounts: readonly number[]) => amounts.reduce((total, amount) => total + cents(amount), 0) / 100;

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
function monetaryTotalOf(root: XmlElement, kind: ReturnType<typeof rootKind>): XmlElement | undefined {
  return (
    (kind === 'DebitNote' ? childOf(root, NS.cac, 'RequestedMonetaryTotal') : undefined) ??
    childOf(root, NS.cac, 'LegalMonetaryTotal')
  );
}

/** Catálogo 51 code: cbc:InvoiceTypeCode/@listID (UBL 2.1), or cbc:ProfileID in the first UBL 2.1 documents. */
function readOperationType(root: XmlElement): string | null {
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
function readAmounts(
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
function readDetraction(root: XmlElement): ParsedDetraction | null {
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

/** The portal's reading of a SUNAT document's element tree. Throws BadRequestError with an ERROR_XML_* code. */
export function readSunatDocument(root: XmlElement): ParsedDocument {
  const detraction = readDetraction(root);
  const kind = rootKind(root);
  const { prefixId, numericId } = seriesAndNumber(
    required(bounded(textOf(childOf(root, NS.cbc, 'ID')), FIELD.id, TEXT_LIMITS.documentId), FIELD.id),
    FIELD.id,
  );
  const issueDate = required(dateOf(childOf(root, NS.cbc, 'IssueDate'), FIELD.issueDate), FIELD.issueDate);
  const supplier = readSupplier(root);
  const customer = readCustomer(root);

  const igv = taxOfScheme(root, IGV_SCHEME, FIELD.taxAmount);
  const payable =
    (kind === 'DebitNote' ? pathOf(root, cac('RequestedMonetaryTotal'), cbc('PayableAmount')) : undefined) ??
    pathOf(root, cac('LegalMonetaryTotal'), cbc('PayableAmount'));
  const totals = (): GrossAndNet => {
    const total = monetaryTotalOf(root, kind);
    return {
      gross:
        amountOf(childOf(total, NS.cbc, 'LineExtensionAmount'), FIELD.saleValue) ??
        amountOf(childOf(total, NS.cbc, 'TaxInclusiveAmount'), FIELD.taxInclusiveAmount),
      payable: amountOf(payable, FIELD.payableAmount),
    };
  };
  // Read as a recibo's at most once, and only when the type depends on it or it is one.
  let asRecibo: number | undefined;
  const reciboWithholding = () => (asRecibo ??= readWithholding(root, true, totals));
  const type = readType(root, kind, prefixId, () =>
    isHonorarios(prefixId, supplier, readIgvEvidence(root), () => reciboWithholding() > 0),
  );
  const recibo = type === 'RECIBO_POR_HONORARIOS';
  const incomeTaxWithholding = recibo ? reciboWithholding() : readWithholding(root, false, totals);

  const currency = readCurrency(root, payable);
  const payableAmount = required(amountOf(payable, FIELD.payableAmount), FIELD.payableAmount);
  const operationType = readOperationType(root);
  const amounts = readAmounts(root, kind, {
    igv: igv.amount,
    payableAmount,
    currency,
    recibo,
    withheld: incomeTaxWithholding,
  });

  const paymentTerms = readPaymentTerms(root);
  return {
    type,
    ublVersion: bounded(textOf(childOf(root, NS.cbc, 'UBLVersionID')), FIELD.ublVersion, TEXT_LIMITS.code) ?? null,
    prefixId,
    numericId,
    issueDate,
    dueDates: readDueDates(root, paymentTerms),
    currency,
    supplier,
    customer,
    taxAmount: igv.amount,
    incomeTaxWithholding,
    payableAmount,
    purchaseOrders: readPurchaseOrders(root),
    billingReference: kind === 'Invoice' ? null : readBillingReference(root),
    paymentTerms,
    operationType,
    ...amounts,
    ...(detraction ? { detraction } : {}),
  };
}
