import { INVOICE_STATUS_LABELS, computePayment, type Client, type Invoice, type InvoicePayment } from '@portal/shared';
import type { ExistingInvoice } from '../../repositories/intake-store.js';
import type { IncomingDocument } from './intake-deps.js';

/** What the intake knows of the invoice it is about to store, besides the document. */
export interface NewInvoiceFacts {
  readonly id: string;
  /** The correlative as an integer's digits (F001-00000123 is F001-123). */
  readonly numericId: string;
  readonly client: Client;
  readonly files: { readonly xmlUrl: string | null; readonly pdfUrl: string | null };
  /** The rejection with retry allowed the new one replaces, whose history it continues. */
  readonly replacing: ExistingInvoice | null;
  readonly payment: InvoicePayment;
  readonly now: string;
  readonly by: string;
}

/**
 * What the group expects to pay and when: the company's payment runs and retention, the supplier's exemption
 * (docs/ap-payment.md).
 */
export function paymentOf(
  document: IncomingDocument,
  client: Client,
  supplierExemption: Parameters<typeof computePayment>[0]['supplierExemption'],
  now: string,
): InvoicePayment {
  return computePayment({
    type: document.type,
    currency: document.currency,
    amount: document.amount,
    taxAmount: document.taxAmount,
    method: document.paymentTerms?.method ?? null,
    installments: document.paymentTerms?.installments ?? [],
    declaredPendingAmount: document.paymentTerms?.declaredPendingAmount ?? null,
    dueDates: document.dueDates ?? [],
    detraction: document.detraction ?? null,
    receivedAt: now,
    company: client,
    supplierExemption,
  });
}

/** The invoice a document becomes at its intake: PENDING, waiting for SUNAT, with nothing reviewed yet. */
export function newInvoiceOf(document: IncomingDocument, facts: NewInvoiceFacts): Invoice {
  const { client, files, replacing, now } = facts;
  return {
    id: facts.id,
    prefixId: document.prefixId,
    numericId: facts.numericId,
    type: document.type,
    status: 'PENDING',
    statusMessage: null,
    certStatus: 'PENDING',
    approved: false,
    supplierId: document.supplier.taxId,
    supplierName: document.supplier.name,
    client: client.taxId,
    clientName: client.name,
    responsible: null,
    officeId: null,
    locationId: null,
    operationType: null,
    currency: document.currency,
    amount: document.amount,
    taxAmount: document.taxAmount,
    serviceSheets: [],
    materialDocs: [],
    purchaseOrders: [...document.purchaseOrders],
    attachments: [],
    issuedAt: document.issueDate,
    receivedAt: now,
    scheduledAt: null,
    paidAt: null,
    xmlUrl: files.xmlUrl,
    pdfUrl: files.pdfUrl,
    disapprovedWithoutRejection: false,
    notes: document.notes,
    breakdown: document.breakdown ?? null,
    // A resubmission continues the history of the rejection it replaces: nothing anyone did is lost.
    statusHistory: [
      ...(replacing ? replacing.statusHistory : []),
      {
        status: 'PENDING',
        title: INVOICE_STATUS_LABELS.PENDING,
        additionalMessage: replacing ? 'Comprobante enviado nuevamente tras el rechazo' : 'Comprobante recibido',
        date: now,
        by: facts.by,
      },
    ],
    payment: facts.payment,
  };
}
