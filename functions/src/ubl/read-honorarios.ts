import {
  COUNT_LIMITS,
  FOURTH_CATEGORY_WITHHOLDING,
  MAX_AMOUNT_TEXT,
  TAX_SCHEME,
  allowanceChargeCodeOf,
  taxSchemeOf,
} from '@portal/shared';
import { NS } from './namespaces.js';
import type { ParsedParty } from './parsed-document.js';
import { allOf, childOf, childrenOf, pathOf, textOf, type XmlElement } from './xml-tree.js';
import {
  FIELD,
  INCOME_TAX_SCHEME,
  amountOf,
  cac,
  cbc,
  cents,
  counted,
  ext,
  required,
  sac,
  sum,
  withinMaximum,
} from './read-fields.js';
import { normalised } from './read-terms.js';

/*
 * How a recibo por honorarios is told from a factura (read-document.ts says what was modelled) and the retención
 * de 4ta categoría it states.
 */

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

export function readIgvEvidence(root: XmlElement): IgvEvidence {
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
export function isHonorarios(
  prefixId: string,
  supplier: ParsedParty,
  igv: IgvEvidence,
  withheld: () => boolean,
): boolean {
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
export function isRentaRetentionAllowance(element: XmlElement): boolean {
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

export interface GrossAndNet {
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
export function readWithholding(root: XmlElement, recibo: boolean, totals: () => GrossAndNet): number {
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
