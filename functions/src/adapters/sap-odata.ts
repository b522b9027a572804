import * as z from 'zod/mini';
import { SAP_WITHHOLDING_TAX } from '@portal/shared';
import type { PaymentRunItem, SupplierInvoicePosting } from './sap-port.js';

/* OData V2 as S/4HANA's services speak it: literals, answers, the MIRO's payload and the payment runs' rows. */

/** OData V2's date literal. */
export function odataDate(isoDate: string): string {
  return `/Date(${Date.parse(`${isoDate.slice(0, 10)}T00:00:00Z`)})/`;
}

/** An OData V2 `/Date(ms)/` (or an ISO string) as an ISO date-time. */
export function fromOdataDate(value: string): string {
  const ms = /^\/Date\((-?\d+)(?:[+-]\d+)?\)\/$/.exec(value)?.[1];
  return new Date(ms === undefined ? value : Number(ms)).toISOString();
}

const decimal = (amount: number) => amount.toFixed(2);

/** An OData Edm.Decimal of a paid amount ('1038.40'), to the cent; null when absent or unreadable. */
function paidAmount(value: string | null | undefined): number | null {
  if (!value || !/^\d+(\.\d+)?$/.test(value)) return null;
  return Math.round(Number(value) * 100) / 100;
}

export const PostedAnswer = z.object({
  d: z.object({
    SupplierInvoice: z.string().check(z.minLength(1)),
    FiscalYear: z.string().check(z.minLength(4)),
  }),
});
export const FoundAnswer = z.object({
  d: z.object({
    results: z.array(
      z.object({
        SupplierInvoice: z.string().check(z.minLength(1)),
        FiscalYear: z.string().check(z.minLength(4)),
        SupplierInvoiceIsCreditMemo: z.nullish(z.string()),
        InvoiceReference: z.nullish(z.string()),
        ReverseDocument: z.nullish(z.string()),
      }),
    ),
  }),
});
/** An OData V2 string literal: single quotes doubled. */
export const odataString = (value: string) => `'${value.replace(/'/g, "''")}'`;
export const PaymentRunAnswer = z.object({
  d: z.object({
    results: z.array(
      z.object({
        InvoicingParty: z.string(),
        SupplierInvoiceIDByInvcgParty: z.string(),
        PortalInvoiceType: z.nullish(z.string()),
        ScheduledPaymentDate: z.string(),
        PaymentDate: z.nullish(z.string()),
        LastChangeDateTime: z.string(),
        // The remittance, once paid.
        PaymentDocument: z.nullish(z.string()),
        PaymentDocumentFiscalYear: z.nullish(z.string()),
        PaymentMethod: z.nullish(z.string()),
        PaymentMethodName: z.nullish(z.string()),
        PaidAmount: z.nullish(z.string()),
        PaymentCurrency: z.nullish(z.string()),
      }),
    ),
    __next: z.nullish(z.string()),
  }),
});

/** An OData query string; OData wants %20 for spaces (URLSearchParams would write '+'). */
export function odataQuery(pairs: readonly (readonly [string, string])[]): string {
  return pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
}

type PaymentRunRow = z.infer<typeof PaymentRunAnswer>['d']['results'][number];

/** The A_SupplierInvoice deep insert of a posting, for the company code of its company. */
export function supplierInvoicePayload(posting: SupplierInvoicePosting, companyCode: string) {
  return {
    CompanyCode: companyCode,
    DocumentDate: odataDate(posting.documentDate),
    PostingDate: odataDate(posting.postingDate),
    InvoicingParty: posting.supplierId,
    // S/4HANA's credit-memo indicator on the header (a single-character flag): 'X' credit memo, '' invoice.
    SupplierInvoiceIsCreditMemo: posting.creditMemo ? 'X' : '',
    ...(posting.adjusts
      ? { InvoiceReference: posting.adjusts.number, InvoiceReferenceFiscalYear: posting.adjusts.fiscalYear }
      : {}),
    SupplierInvoiceIDByInvcgParty: posting.supplierInvoiceId,
    DocumentCurrency: posting.currency,
    InvoiceGrossAmount: decimal(posting.grossAmount),
    to_SupplierInvoiceTax: {
      results:
        posting.taxAmount > 0 ? [{ DocumentCurrency: posting.currency, TaxAmount: decimal(posting.taxAmount) }] : [],
    },
    to_SuplrInvcItemPurOrdRef: {
      results: posting.items.map((item, i) => ({
        SupplierInvoiceItem: String(i + 1).padStart(6, '0'),
        PurchaseOrder: item.purchaseOrder,
        PurchaseOrderItem: item.purchaseOrderItem,
        DocumentCurrency: posting.currency,
        SupplierInvoiceItemAmount: decimal(item.amount),
        ...(posting.adjusts ? { IsSubsequentDebitCredit: 'X' } : {}),
        ...(item.serviceEntrySheet ? { ServiceEntrySheet: item.serviceEntrySheet } : {}),
        ...(item.referenceDocument
          ? {
              ReferenceDocument: item.referenceDocument,
              ReferenceDocumentFiscalYear: item.referenceDocumentFiscalYear ?? posting.documentDate.slice(0, 4),
            }
          : {}),
      })),
    },
    ...(posting.withholdings && posting.withholdings.length > 0
      ? {
          to_SuplrInvcHeaderWhldgTax: {
            results: posting.withholdings.map((withholding) => ({
              WithholdingTaxType: SAP_WITHHOLDING_TAX[withholding.kind].type,
              WithholdingTaxCode: SAP_WITHHOLDING_TAX[withholding.kind].code,
              DocumentCurrency: posting.currency,
              WithholdingTaxBaseAmount: decimal(withholding.baseAmount),
              ManuallyEnteredWhldgTaxAmount: decimal(withholding.amount),
            })),
          },
        }
      : {}),
  };
}

/** A PaymentRunItems row in the portal's words. */
export function paymentRunItemOf(row: PaymentRunRow): PaymentRunItem {
  return {
    supplierId: row.InvoicingParty,
    invoiceId: row.SupplierInvoiceIDByInvcgParty,
    invoiceType: row.PortalInvoiceType ?? null,
    scheduledAt: fromOdataDate(row.ScheduledPaymentDate).slice(0, 10),
    paidAt: row.PaymentDate ? fromOdataDate(row.PaymentDate).slice(0, 10) : null,
    changedAt: fromOdataDate(row.LastChangeDateTime),
    payment:
      row.PaymentDate && row.PaymentDocument
        ? {
            document: row.PaymentDocument,
            fiscalYear: row.PaymentDocumentFiscalYear ?? null,
            method: row.PaymentMethod ?? '',
            methodName: row.PaymentMethodName || row.PaymentMethod || 'No informado por SAP',
            amount: paidAmount(row.PaidAmount),
            currency: row.PaymentCurrency ?? null,
          }
        : null,
  };
}
