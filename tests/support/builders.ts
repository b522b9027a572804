import { randomInt } from 'node:crypto';
import {
  INVOICE_STATUS_LABELS,
  withCheckDigit,
  type Invoice,
  type InvoiceStatus,
  type StatusHistoryEntry,
} from '@portal/shared';
import { CLIENTS, SUPPLIERS } from './tenant.js';

/**
 * Test data builders: each makes one thing of the portal's model with defaults that hold together, and takes the
 * fields a test cares about as overrides, so that a test says only what matters to it. Typed from @portal/shared:
 * a field the model adds or renames fails here, once, not in every test that spelled the whole object out.
 */

/** A supplier or a company as an invoice names it: RUC and business name. */
export interface Party {
  readonly taxId: string;
  readonly name: string;
}

/** A supplier of this run: a RUC of its own (20 + seven random digits + its check digit) unless given. */
export function aSupplier(overrides: Partial<Party> = {}): Party {
  return {
    taxId: withCheckDigit(`207${randomInt(1_000_000, 9_999_999)}`),
    name: 'Proveedor de Pruebas S.A.C.',
    ...overrides,
  };
}

/** The amounts of a document worth `net` before IGV (18 %): its total and its tax, to the cent. */
export function withIgv(net: number): Pick<Invoice, 'amount' | 'taxAmount'> {
  const taxAmount = Math.round(net * 18) / 100;
  return { amount: Math.round((net + taxAmount) * 100) / 100, taxAmount };
}

/** One step of an invoice's status history, titled as the portal titles `status`; by no one, now, unless given. */
export function aStatusEntry(status: InvoiceStatus, overrides: Partial<StatusHistoryEntry> = {}): StatusHistoryEntry {
  return {
    status,
    title: INVOICE_STATUS_LABELS[status],
    additionalMessage: null,
    date: new Date().toISOString(),
    by: null,
    ...overrides,
  };
}

let correlative = (Date.now() % 9_000_000) + 1_000_000;

/**
 * An invoice as intake stores it: a PENDING, SUNAT-valid FACTURA of 1 180 PEN (1 000 + IGV) from the tenant's first
 * supplier to its first company, received now and issued today, without review data, its history the one PENDING
 * step at its reception. `id` is SERIE-CORRELATIVO of `prefixId` (F001) and `numericId` (fresh each call), and the
 * PDF a fixture path of it, unless given. Store it with table().putInvoice (support/fixtures.ts).
 */
export function anInvoice(overrides: Partial<Invoice> = {}): Invoice {
  const prefixId = overrides.prefixId ?? 'F001';
  const numericId = overrides.numericId ?? String(correlative++);
  const id = overrides.id ?? `${prefixId}-${numericId}`;
  const receivedAt = overrides.receivedAt ?? new Date().toISOString();
  const supplier = SUPPLIERS[0]!;
  const company = CLIENTS[0]!;
  return {
    id,
    prefixId,
    numericId,
    type: 'FACTURA',
    status: 'PENDING',
    statusMessage: null,
    certStatus: 'VALID',
    approved: false,
    supplierId: supplier.taxId,
    supplierName: supplier.name,
    client: company.taxId,
    clientName: company.name,
    responsible: null,
    officeId: null,
    locationId: null,
    operationType: null,
    currency: 'PEN',
    ...withIgv(1000),
    serviceSheets: [],
    materialDocs: [],
    purchaseOrders: [],
    attachments: [],
    issuedAt: receivedAt.slice(0, 10),
    receivedAt,
    scheduledAt: null,
    paidAt: null,
    xmlUrl: null,
    pdfUrl: `fixtures/${id}.pdf`,
    disapprovedWithoutRejection: false,
    notes: null,
    statusHistory: [aStatusEntry('PENDING', { date: receivedAt })],
    ...overrides,
  };
}

/** The supplier and company fields of an invoice between `supplier` and `company`. */
export function between(
  supplier: Party,
  company: Party,
): Pick<Invoice, 'supplierId' | 'supplierName' | 'client' | 'clientName'> {
  return { supplierId: supplier.taxId, supplierName: supplier.name, client: company.taxId, clientName: company.name };
}
