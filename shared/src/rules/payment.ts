import type { Currency, InvoiceType } from '../domain.js';
import { formatMoney } from '../format.js';
import type {
  Detraction,
  IgvRetention,
  Installment,
  InvoicePayment,
  PaymentMethod,
  RetentionExemption,
} from '../schemas/payment.js';
import { fromCents, percentOfCents, sumCents, toBasisPoints, toCents } from './money.js';
import { limaDayOf } from './acquirer-conformity.js';

/**
 * The payment rules of docs/ap-payment.md, pure and shared: the API computes an invoice's payment with them at
 * intake, the web app reads the same labels. Every amount is computed in integer cents (money.ts).
 */

/**
 * The withholding tax types and codes of the group's S/4HANA (A_SuplrInvcHeaderWhldgTax of
 * API_SUPPLIERINVOICE_PROCESS_SRV: WithholdingTaxType and WithholdingTaxCode, two characters each) for the two
 * Peruvian withholdings a MIRO carries. Customizing of the group's SAP: align them with it. The amount is always
 * sent as ManuallyEnteredWhldgTaxAmount, so the code's own rate never decides it.
 */
export const SAP_WITHHOLDING_TAX = {
  IGV_RETENTION: { type: 'R1', code: 'R3' },
  DETRACTION: { type: 'D1', code: 'D1' },
} as const;
export type SapWithholdingKind = keyof typeof SAP_WITHHOLDING_TAX;

/** Retención del IGV: 3 % of the importe de la operación (R.S. 037-2002/SUNAT art. 6, as R.S. 033-2014/SUNAT left it). */
export const IGV_RETENTION_PERCENT = 3;
/** Operations of S/ 700 or less (importe total with IGV) are not retained (R.S. 037-2002/SUNAT art. 5). */
export const IGV_RETENTION_THRESHOLD_PEN = 700;

/** The documents the retention applies to: those whose IGV the agent takes as crédito fiscal. */
const RETAINED_TYPES: readonly InvoiceType[] = ['FACTURA', 'NOTA_DE_DEBITO'];

export const RETENTION_EXEMPTION_LABELS: Record<RetentionExemption, string> = {
  BUEN_CONTRIBUYENTE: 'Buen contribuyente',
  AGENTE_RETENCION: 'Agente de retención',
};

/** Catálogo 51 (tipo de operación) codes of operations subject to the SPOT. */
export const DETRACTION_OPERATION_TYPES: Record<string, string> = {
  '1001': 'Operación sujeta a detracción',
  '1002': 'Operación sujeta a detracción - Recursos hidrobiológicos',
  '1003': 'Operación sujeta a detracción - Servicios de transporte de pasajeros',
  '1004': 'Operación sujeta a detracción - Servicios de transporte de carga',
};

/** Catálogo 54: the goods and services subject to the SPOT (SUNAT's catálogos of the UBL 2.1 guides). */
export const DETRACTION_CODES: Record<string, string> = {
  '001': 'Azúcar y melaza de caña',
  '002': 'Arroz',
  '003': 'Alcohol etílico',
  '004': 'Recursos hidrobiológicos',
  '005': 'Maíz amarillo duro',
  '007': 'Caña de azúcar',
  '008': 'Madera',
  '009': 'Arena y piedra',
  '010': 'Residuos, subproductos, desechos, recortes y desperdicios',
  '011': 'Bienes gravados con el IGV, o renuncia a la exoneración',
  '012': 'Intermediación laboral y tercerización',
  '013': 'Animales vivos',
  '014': 'Carnes y despojos comestibles',
  '015': 'Abonos, cueros y pieles de origen animal',
  '016': 'Aceite de pescado',
  '017': 'Harina, polvo y «pellets» de pescado, crustáceos, moluscos y demás invertebrados acuáticos',
  '019': 'Arrendamiento de bienes muebles',
  '020': 'Mantenimiento y reparación de bienes muebles',
  '021': 'Movimiento de carga',
  '022': 'Otros servicios empresariales',
  '023': 'Leche',
  '024': 'Comisión mercantil',
  '025': 'Fabricación de bienes por encargo',
  '026': 'Servicio de transporte de personas',
  '027': 'Servicio de transporte de carga',
  '028': 'Transporte de pasajeros',
  '030': 'Contratos de construcción',
  '031': 'Oro gravado con el IGV',
  '032': 'Páprika y otros frutos de los géneros capsicum o pimienta',
  '034': 'Minerales metálicos no auríferos',
  '035': 'Bienes exonerados del IGV',
  '036': 'Oro y demás minerales metálicos exonerados del IGV',
  '037': 'Demás servicios gravados con el IGV',
  '039': 'Minerales no metálicos',
  '040': 'Bien inmueble gravado con IGV',
  '041': 'Plomo',
  '044': 'Servicio de beneficio de minerales metálicos gravado con el IGV',
  '045': 'Minerales de oro y sus concentrados gravados con el IGV',
  '099': 'Ley 30737',
};

/** The Spanish name of a catálogo 54 code; a code SUNAT's catalogue does not list is said as such. */
export function detractionCodeLabel(code: string): string {
  return DETRACTION_CODES[code] ?? `Código ${code} (no figura en el catálogo 54)`;
}

/** "12 %", "1.5 %": a percentage as a person reads it. */
export function formatPercent(percent: number): string {
  return `${Number.isInteger(percent) ? percent : percent.toFixed(2).replace(/0$/, '')} %`;
}

// ---------------------------------------------------------------------------------------------------------------
// Dates

const parseDay = (date: string) => Date.parse(`${date}T00:00:00Z`);
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function lastDayOfMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/**
 * The first payment-run day on or after `date`. A company pays on days of the month (15 and 30, say); a day the
 * month does not have (30 in February, 31 in April) is that month's last day, so a run "on the 30th" still pays
 * in February, on the 28th or 29th. No run days: the date itself.
 */
export function nextPaymentRunDay(date: string, runDays: readonly number[] | null | undefined): string {
  if (!runDays || runDays.length === 0) return date;
  const start = new Date(parseDay(date));
  for (let offset = 0; offset < 2; offset++) {
    const year = start.getUTCFullYear();
    const month = start.getUTCMonth() + offset;
    const last = lastDayOfMonth(year, month);
    const days = [...new Set(runDays.map((day) => Math.min(day, last)))].sort((a, b) => a - b);
    for (const day of days) {
      const candidate = Date.UTC(year, month, day);
      if (candidate >= start.getTime()) return isoDay(candidate);
    }
  }
  // Unreachable: every month has a run day, so the next month always answers.
  return date;
}

// ---------------------------------------------------------------------------------------------------------------
// Retention

export interface RetentionInput {
  readonly companyIsAgent: boolean;
  readonly supplierExemption: RetentionExemption | null;
  readonly type: InvoiceType;
  readonly currency: Currency;
  /** Importe total, with IGV. */
  readonly amount: number;
  readonly taxAmount: number;
  readonly subjectToDetraction: boolean;
}

/**
 * Retención del IGV (R.S. 037-2002/SUNAT): null when the company is not agente de retención; else whether the 3 %
 * applies and, when not, why. Checked in this order: the document type, an operation without IGV (exonerada,
 * inafecta, exportación), the supplier's exemption (art. 5: buenos contribuyentes, agentes de retención), the
 * SPOT (an operation subject to detracción is not retained), the S/ 700 threshold.
 */
export function igvRetentionOf(input: RetentionInput): IgvRetention | null {
  if (!input.companyIsAgent) return null;
  const none = (reason: string): IgvRetention => ({
    applies: false,
    percent: IGV_RETENTION_PERCENT,
    amount: 0,
    reason,
  });
  if (!RETAINED_TYPES.includes(input.type)) return none('El tipo de comprobante no está sujeto a retención del IGV.');
  if (toCents(input.taxAmount) === 0) return none('Operación sin IGV (exonerada, inafecta o exportación).');
  if (input.supplierExemption) {
    return none(`Proveedor exceptuado: ${RETENTION_EXEMPTION_LABELS[input.supplierExemption].toLowerCase()}.`);
  }
  if (input.subjectToDetraction) return none('Operación sujeta a detracción (SPOT): no se retiene el IGV.');
  // The threshold is in soles. A dollar has never been worth less than a sol, so a total above 700 in dollars is
  // above S/ 700 too; a smaller one in dollars depends on the exchange rate of the day of payment.
  if (toCents(input.amount) <= IGV_RETENTION_THRESHOLD_PEN * 100) {
    return none(
      input.currency === 'PEN'
        ? `El importe no supera ${formatMoney(IGV_RETENTION_THRESHOLD_PEN)}.`
        : `El importe no supera ${formatMoney(IGV_RETENTION_THRESHOLD_PEN, 'USD')}: el umbral de ${formatMoney(IGV_RETENTION_THRESHOLD_PEN)} se verifica al tipo de cambio del día de pago.`,
    );
  }
  const cents = percentOfCents(toCents(input.amount), toBasisPoints(IGV_RETENTION_PERCENT));
  return { applies: true, percent: IGV_RETENTION_PERCENT, amount: fromCents(cents), reason: null };
}

// ---------------------------------------------------------------------------------------------------------------
// Detracción

export interface DetractionStatement {
  readonly operationType: string | null;
  readonly code: string;
  readonly percent: number;
  /** As stated; null for a form in dollars without the amount in soles. */
  readonly amount: number | null;
  readonly currency: Currency;
  readonly account: string | null;
}

/**
 * The detracción as the invoice keeps it. What is subtracted from the amount to pay is its amount in the
 * document's currency: the stated amount when stated in that currency, else the percentage of the total (a
 * document in dollars states the deposit in soles, SUNAT's rule, at an exchange rate the portal does not hold).
 */
export function detractionOf(
  statement: DetractionStatement,
  document: { currency: Currency; amount: number },
): Detraction {
  const inDocumentCurrency =
    statement.amount !== null && statement.currency === document.currency
      ? toCents(statement.amount)
      : percentOfCents(toCents(document.amount), toBasisPoints(statement.percent));
  return {
    operationType: statement.operationType,
    code: statement.code,
    percent: statement.percent,
    amount: statement.amount ?? fromCents(inDocumentCurrency),
    currency: statement.amount === null ? document.currency : statement.currency,
    amountInDocumentCurrency: fromCents(inDocumentCurrency),
    account: statement.account,
  };
}

/** The deposit of a detracción typed in the form: the percentage of the total, to the cent. */
export function detractionAmountCents(totalAmount: number, percent: number): number {
  return percentOfCents(toCents(totalAmount), toBasisPoints(percent));
}

// ---------------------------------------------------------------------------------------------------------------
// The invoice's payment

export interface PaymentInput {
  readonly type: InvoiceType;
  readonly currency: Currency;
  readonly amount: number;
  readonly taxAmount: number;
  /** Null when the document states no forma de pago (UBL 2.0, notes): read as Contado. */
  readonly method: PaymentMethod | null;
  readonly installments: readonly Installment[];
  readonly declaredPendingAmount: number | null;
  /** Every due date the document states (cbc:DueDate, payment means), used when it has no cuotas. */
  readonly dueDates: readonly string[];
  readonly detraction: DetractionStatement | null;
  /** When the portal received it (ISO timestamp): the due date of a sale al contado. */
  readonly receivedAt: string;
  readonly company: { readonly igvRetentionAgent?: boolean; readonly paymentRunDays?: readonly number[] | null };
  readonly supplierExemption: RetentionExemption | null;
}

/**
 * What the portal expects to pay and when (docs/ap-payment.md):
 * 1. the detracción in the document's currency and the retención del IGV;
 * 2. net to pay = amount − detracción − retención, in cents;
 * 3. cuotas (and a declared pending amount) that do not add up to it are flagged;
 * 4. due date: the last cuota, else (unless Contado) the latest due date stated, else the reception; nothing to
 *    pay (a credit note, a free-of-charge document) has none;
 * 5. expected payment date: the due date moved to the company's next payment-run day.
 */
export function computePayment(input: PaymentInput): InvoicePayment {
  const detraction = input.detraction ? detractionOf(input.detraction, input) : null;
  const igvRetention = igvRetentionOf({
    companyIsAgent: input.company.igvRetentionAgent === true,
    supplierExemption: input.supplierExemption,
    type: input.type,
    currency: input.currency,
    amount: input.amount,
    taxAmount: input.taxAmount,
    subjectToDetraction: detraction !== null,
  });
  const netCents = Math.max(
    0,
    toCents(input.amount) - toCents(detraction?.amountInDocumentCurrency ?? 0) - toCents(igvRetention?.amount ?? 0),
  );
  const method: PaymentMethod = input.method ?? (input.installments.length > 0 ? 'CREDITO' : 'CONTADO');
  const installments = [...input.installments].sort((a, b) => a.number - b.number);
  const money = (cents: number) => formatMoney(fromCents(cents), input.currency);

  const warnings: string[] = [];
  if (method === 'CREDITO' && installments.length === 0) {
    warnings.push('La forma de pago es al crédito, pero el comprobante no indica sus cuotas.');
  }
  if (installments.length > 0) {
    const sum = sumCents(installments.map((installment) => installment.amount));
    if (sum !== netCents) {
      warnings.push(
        `La suma de las cuotas (${money(sum)}) no coincide con el neto a pagar (${money(netCents)}): ` +
          `diferencia de ${money(Math.abs(sum - netCents))}.`,
      );
    }
  }
  if (input.declaredPendingAmount !== null && toCents(input.declaredPendingAmount) !== netCents) {
    warnings.push(
      `El monto neto pendiente de pago que declara el comprobante (${money(toCents(input.declaredPendingAmount))}) ` +
        `no coincide con el neto a pagar (${money(netCents)}).`,
    );
  }

  const nothingToPay = input.type === 'NOTA_DE_CREDITO' || netCents === 0;
  const latest = (dates: readonly string[]) => (dates.length > 0 ? [...dates].sort().at(-1)! : null);
  // Al contado the document is due when received; a due date it also states does not defer it.
  const stated =
    latest(installments.map((installment) => installment.dueDate)) ??
    (input.method === 'CONTADO' ? null : latest(input.dueDates));
  const dueDate = nothingToPay ? null : (stated ?? limaDayOf(input.receivedAt));
  const expectedPaymentDate = dueDate ? nextPaymentRunDay(dueDate, input.company.paymentRunDays) : null;

  return {
    method,
    installments,
    declaredPendingAmount: input.declaredPendingAmount,
    detraction,
    igvRetention,
    netToPay: fromCents(netCents),
    warnings,
    dueDate,
    expectedPaymentDate,
    movedToPaymentRun: dueDate !== null && expectedPaymentDate !== dueDate,
  };
}

/** The number of a cuota as SUNAT writes it: Cuota001 → 1; null when the id is not of that form. */
export function installmentNumber(id: string): number | null {
  const match = /^cuota0*(\d+)$/i.exec(id.trim());
  return match ? Number(match[1]) : null;
}

/** "Detracción S/ 141.60 (12 %) · Neto a pagar S/ 1,038.40": the line the sidebar and the assistant show. */
export function netToPayLine(payment: InvoicePayment, currency: Currency): string {
  const parts: string[] = [];
  if (payment.detraction) {
    parts.push(
      `Detracción ${formatMoney(payment.detraction.amount, payment.detraction.currency)} (${formatPercent(payment.detraction.percent)})`,
    );
  }
  if (payment.igvRetention?.applies) {
    parts.push(
      `Retención IGV ${formatMoney(payment.igvRetention.amount, currency)} (${formatPercent(payment.igvRetention.percent)})`,
    );
  }
  parts.push(`Neto a pagar ${formatMoney(payment.netToPay, currency)}`);
  return parts.join(' · ');
}

/**
 * What the screens say of when an invoice is paid (docs/ap-payment.md, "Due date and expected payment date"): the
 * expected payment date while it is today or ahead; once it has passed unpaid, overdue since the due date, so a late
 * invoice (issued long before the portal received it) never reads a past date as if it were to come; nothing to pay,
 * none.
 */
export type PaymentOutlook =
  | { readonly kind: 'NONE' }
  | { readonly kind: 'EXPECTED'; readonly date: string }
  | { readonly kind: 'OVERDUE'; readonly since: string };

export function paymentOutlook(
  payment: Pick<InvoicePayment, 'dueDate' | 'expectedPaymentDate'> | null | undefined,
  today: string,
): PaymentOutlook {
  const expected = payment?.expectedPaymentDate ?? null;
  if (!expected) return { kind: 'NONE' };
  if (expected >= today) return { kind: 'EXPECTED', date: expected };
  return { kind: 'OVERDUE', since: payment?.dueDate ?? expected };
}
