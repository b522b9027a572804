import {
  IGV_RETENTION_PERCENT,
  IGV_RETENTION_THRESHOLD_PEN,
  SAP_WITHHOLDING_TAX,
  percentOfCents,
  toBasisPoints,
  toCents,
  type SapWithholdingKind,
} from '@portal/shared';
import type { DemoParties } from '../../seed/seed-data.js';
import { linesOf } from './metadata.js';
import { docKey, isCreditMemo, type Posting, type SapState } from './state.js';

/** What S/4HANA checks of a posting before it posts it: the three-way match, the adjusted invoice, the withholdings. */

const closeEnough = (a: number, b: number) => Math.abs(a - b) <= 0.01 + 1e-9;

type Withholding = NonNullable<Posting['withholdings']>[number];

/** The rows of the deep insert's A_SuplrInvcHeaderWhldgTax. */
export function withholdingRows(payload: Record<string, unknown>): Record<string, unknown>[] {
  return ((payload.to_SuplrInvcHeaderWhldgTax as { results?: unknown[] } | undefined)?.results ?? []) as Record<
    string,
    unknown
  >[];
}

/** Which of the group's withholdings a row's type and code name; undefined when none. */
export function withholdingKind(row: Record<string, unknown>): SapWithholdingKind | undefined {
  return (Object.keys(SAP_WITHHOLDING_TAX) as SapWithholdingKind[]).find(
    (each) =>
      SAP_WITHHOLDING_TAX[each].type === row.WithholdingTaxType &&
      SAP_WITHHOLDING_TAX[each].code === row.WithholdingTaxCode,
  );
}

/**
 * The withholding tax data of a posting as S/4HANA checks it against its customizing and the supplier master
 * (docs/ap-payment.md): only the group's withholding types and codes, in the document currency, on the gross
 * amount; the detracción and the retención del IGV never together; the retención (3 %, to the cent) present
 * exactly when the company is agente de retención, the supplier is not exempt and the gross amount passes
 * S/ 700; absent otherwise. Answers the lines read, or the reason for refusing them.
 */
function withholdingsOf(
  payload: Record<string, unknown>,
  acquirer: string,
  gross: number,
  tax: number,
  worlds: readonly DemoParties[],
): { lines: Withholding[] } | { problem: string } {
  const currency = String(payload.DocumentCurrency ?? '');
  const lines: Withholding[] = [];
  for (const row of withholdingRows(payload)) {
    const kind = withholdingKind(row);
    if (!kind) {
      return {
        problem: `El tipo de retención ${String(row.WithholdingTaxType)} con el indicador ${String(row.WithholdingTaxCode)} no está definido.`,
      };
    }
    if (lines.some((line) => line.kind === kind))
      return { problem: `El tipo de retención ${String(row.WithholdingTaxType)} figura dos veces.` };
    if (row.DocumentCurrency !== currency)
      return { problem: `La retención no está en la moneda del documento (${currency}).` };
    const baseAmount = Number(row.WithholdingTaxBaseAmount);
    const amount = Number(row.ManuallyEnteredWhldgTaxAmount);
    if (!Number.isFinite(baseAmount) || toCents(baseAmount) !== toCents(gross)) {
      return {
        problem: `La base de la retención (${String(row.WithholdingTaxBaseAmount)}) no es el importe bruto ${gross.toFixed(2)}.`,
      };
    }
    if (!Number.isFinite(amount) || !(amount > 0) || amount >= baseAmount) {
      return { problem: `El importe retenido ${String(row.ManuallyEnteredWhldgTaxAmount)} no es válido.` };
    }
    lines.push({ kind, baseAmount, amount });
  }
  const detraction = lines.some((line) => line.kind === 'DETRACTION');
  const retention = lines.find((line) => line.kind === 'IGV_RETENTION');
  const company = worlds.flatMap((parties) => parties.clients).find((client) => client.taxId === acquirer);
  const supplier = worlds
    .flatMap((parties) => parties.suppliers)
    .find((each) => each.taxId === String(payload.InvoicingParty ?? ''));
  const retentionDue =
    company?.igvRetentionAgent === true &&
    payload.IsInvoice !== false &&
    !supplier?.igvRetentionExemption &&
    !detraction &&
    tax > 0 &&
    toCents(gross) > IGV_RETENTION_THRESHOLD_PEN * 100;
  if (detraction && retention) return { problem: 'Una operación sujeta a detracción no lleva retención del IGV.' };
  if (retentionDue && !retention) {
    return {
      problem: `Falta la retención del IGV: el acreedor ${String(payload.InvoicingParty)} está sujeto a retención en esta sociedad.`,
    };
  }
  if (!retentionDue && retention)
    return { problem: 'La retención del IGV no corresponde a este acreedor, sociedad o importe.' };
  if (retention) {
    const expected = percentOfCents(toCents(gross), toBasisPoints(IGV_RETENTION_PERCENT));
    if (toCents(retention.amount) !== expected) {
      return { problem: `La retención del IGV debe ser ${(expected / 100).toFixed(2)} (3 % de ${gross.toFixed(2)}).` };
    }
  }
  return { lines };
}

/**
 * A credit memo or subsequent debit: the invoice it names (InvoiceReference) exists at the company for
 * the same supplier and is an invoice; its lines are that invoice's purchase orders; a credit takes at most what is
 * left of the invoice (its gross − credits + subsequent debits already referencing it). Null when it holds.
 */
function adjustmentMismatch(state: SapState, payload: Record<string, unknown>, acquirer: string): string | null {
  const { postings, orders } = state;
  const creditMemo = payload.SupplierInvoiceIsCreditMemo === 'X';
  const reference = payload.InvoiceReference ? String(payload.InvoiceReference) : null;
  if (!reference) return creditMemo ? 'Un abono debe indicar la factura que abona (InvoiceReference).' : null;
  const year = String(payload.InvoiceReferenceFiscalYear ?? '');
  const code = String(payload.CompanyCode);
  const supplier = String(payload.InvoicingParty ?? '');
  const original = postings.find((p) => p.document === reference && p.fiscalYear === year && p.companyCode === code);
  if (!original) return `La factura de referencia ${reference}/${year} no existe en la sociedad ${code}.`;
  if (original.supplierId !== supplier || isCreditMemo(original) || original.adjusts)
    return `El documento ${reference}/${year} no es una factura del acreedor ${supplier}.`;
  if (original.currency && original.currency !== String(payload.DocumentCurrency ?? ''))
    return `La moneda no es la de la factura de referencia ${reference}.`;
  for (const line of linesOf(payload)) {
    const order = String(line.PurchaseOrder);
    if (original.purchaseOrders && !original.purchaseOrders.includes(order))
      return `El pedido ${order} no corresponde a la factura de referencia ${reference}.`;
    if (line.IsSubsequentDebitCredit !== 'X')
      return `La posición del pedido ${order} debe ser un cargo o abono posterior.`;
    if (!orders.has(`${acquirer}#${order}`)) return `El pedido ${order} no existe para el acreedor ${supplier}.`;
  }
  if (creditMemo && original.grossAmount !== undefined) {
    const adjusting = postings.filter(
      (p) => p.adjusts?.document === reference && p.adjusts.fiscalYear === year && p.companyCode === code,
    );
    const cents = (amount: number | undefined) => Math.round((amount ?? 0) * 100);
    const left =
      cents(original.grossAmount) -
      adjusting.filter(isCreditMemo).reduce((sum, p) => sum + cents(p.grossAmount), 0) +
      adjusting.filter((p) => !isCreditMemo(p)).reduce((sum, p) => sum + cents(p.grossAmount), 0);
    const gross = cents(Number(payload.InvoiceGrossAmount));
    if (gross > left)
      return `El abono ${(gross / 100).toFixed(2)} supera el saldo ${(left / 100).toFixed(2)} de la factura ${reference}.`;
  }
  return null;
}

/** The three-way match of one posting; null when it holds. */
export function mismatch(state: SapState, payload: Record<string, unknown>): string | null {
  const { companies, orders, documents, worlds } = state;
  const acquirer = companies.get(String(payload.CompanyCode));
  if (!acquirer) return `La sociedad ${String(payload.CompanyCode)} no existe.`;
  const supplier = String(payload.InvoicingParty ?? '');
  const currency = String(payload.DocumentCurrency ?? '');
  const items = linesOf(payload);
  const taxes = ((payload.to_SupplierInvoiceTax as { results?: unknown[] } | undefined)?.results ?? []) as Record<
    string,
    unknown
  >[];
  const adjustment = adjustmentMismatch(state, payload, acquirer);
  if (adjustment) return adjustment;
  let net = 0;
  for (const item of items) {
    const order = orders.get(`${acquirer}#${String(item.PurchaseOrder)}`);
    if (!order || order.issuerTaxId !== supplier)
      return `El pedido ${String(item.PurchaseOrder)} no existe para el acreedor ${supplier}.`;
    if (item.IsSubsequentDebitCredit === 'X') {
      // A price adjustment of the order: no HES or MIGO receives it.
      if (order.currency !== currency) return `La moneda del pedido ${order.id} no es ${currency}.`;
      net += Number(item.SupplierInvoiceItemAmount);
      continue;
    }
    const hes = item.ServiceEntrySheet ? String(item.ServiceEntrySheet) : null;
    const migo = item.ReferenceDocument ? String(item.ReferenceDocument) : null;
    const doc = hes
      ? documents.get(docKey('SERVICE_SHEET', acquirer, hes))
      : migo
        ? documents.get(docKey('MATERIAL_DOCUMENT', acquirer, migo))
        : undefined;
    if (!doc || doc.purchaseOrder !== order.id)
      return `No hay HES ni MIGO ${hes ?? migo ?? ''} del pedido ${order.id}.`;
    if (migo && String(item.ReferenceDocumentFiscalYear) !== doc.fiscalYear)
      return `El documento de material ${migo} no es del ejercicio ${String(item.ReferenceDocumentFiscalYear)}.`;
    const amount = Number(item.SupplierInvoiceItemAmount);
    if (!closeEnough(amount, doc.amount))
      return `El importe ${amount.toFixed(2)} no coincide con el de ${doc.documentId} (${doc.amount.toFixed(2)}).`;
    if (doc.currency !== currency) return `La moneda de ${doc.documentId} no es ${currency}.`;
    net += amount;
  }
  const tax = taxes.reduce((sum, line) => sum + Number(line.TaxAmount), 0);
  const gross = Number(payload.InvoiceGrossAmount);
  if (!Number.isFinite(gross)) return 'Falta el importe bruto de la factura.';
  if (items.length > 0 && !closeEnough(gross, net + tax))
    return `El importe bruto ${gross.toFixed(2)} no cuadra con las posiciones (${net.toFixed(2)}) más impuestos (${tax.toFixed(2)}).`;
  const withholdings = withholdingsOf(payload, acquirer, gross, tax, worlds);
  if ('problem' in withholdings) return withholdings.problem;
  return null;
}
