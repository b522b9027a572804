import { randomInt } from 'node:crypto';
import { expect } from 'vitest';
import { keys, routes, type InvoiceDetail, type InvoiceType } from '@portal/shared';
import { CLIENTS, EMPLOYEES, OFFICE_LOCATIONS, tenantFixture } from './tenant.js';
import { call, idTokenOf, type CallResult } from './api.js';
import { orderWithDocument, table } from './fixtures.js';
import { demoUser, stage } from './stage.js';
import { randomCorrelative } from './invoices.js';
import { MINIMAL_PDF, uploadAs } from './uploads.js';
import { driveUntil } from './schedules.js';
import { until } from './until.js';
import { aSupplier } from './builders.js';
import { stageSap } from './sap.js';

/**
 * Notes and their originals through the API (docs/ap-notes-and-risk.md): documents registered with the form without XML
 * by the administrator (who may submit for any supplier), each test with suppliers of its own, at the company no demo
 * manager reviews unless a test needs the manager.
 */
export const NOTES_COMPANY = CLIENTS[2]!;

export const adminToken = () => idTokenOf(demoUser('ADMIN').username, demoUser('ADMIN').password);
export const managerToken = () => idTokenOf(demoUser('MANAGER').username, demoUser('MANAGER').password);

/** A supplier of this run: a RUC of its own, with its check digit. */
export function freshSupplier(name = 'Proveedor de Notas S.A.C.') {
  return aSupplier({ name });
}

export const pathOf = (invoice: { supplierId: string; type: string; id: string }) => ({
  supplierId: invoice.supplierId,
  invoiceType: invoice.type as InvoiceType,
  invoiceId: invoice.id,
});

export interface DocumentForm {
  readonly supplier: { taxId: string; name: string };
  readonly type?: InvoiceType;
  readonly prefixId?: string;
  readonly numericId?: string;
  readonly client?: string;
  readonly amount?: number;
  readonly taxAmount?: number;
  readonly currency?: 'PEN' | 'USD';
  readonly billingReference?: { type: 'FACTURA' | 'BOLETA'; prefixId: string; numericId: string };
  readonly noteReasonCode?: string;
  readonly noteReasonDescription?: string;
}

/** POST /invoices/without-xml with its PDF, as the administrator (or `token`). */
export async function submit(form: DocumentForm, token?: string): Promise<CallResult<InvoiceDetail>> {
  const caller = token ?? (await adminToken());
  const pdfUrl = await uploadAs(caller, 'INVOICE_PDF', MINIMAL_PDF, 'application/pdf', 'comprobante.pdf');
  const type = form.type ?? 'FACTURA';
  const note = type === 'NOTA_DE_CREDITO' || type === 'NOTA_DE_DEBITO';
  return call<InvoiceDetail>(routes.createInvoiceWithoutXml, {
    token: caller,
    body: {
      prefixId: form.prefixId ?? (note ? (type === 'NOTA_DE_CREDITO' ? 'FC07' : 'FD07') : 'F007'),
      numericId: form.numericId ?? randomCorrelative(),
      type,
      clientTaxId: form.client ?? NOTES_COMPANY.taxId,
      supplierTaxId: form.supplier.taxId,
      supplierName: form.supplier.name,
      currency: form.currency ?? 'PEN',
      amount: form.amount ?? 11_800,
      taxAmount: form.taxAmount ?? 1_800,
      issueDate: '2026-10-20',
      pdfUrl,
      ...(form.billingReference ? { billingReference: form.billingReference } : {}),
      ...(form.noteReasonCode ? { noteReasonCode: form.noteReasonCode } : {}),
      ...(form.noteReasonDescription ? { noteReasonDescription: form.noteReasonDescription } : {}),
    },
  });
}

/** Registers a document and expects it stored. */
export async function registered(form: DocumentForm, token?: string): Promise<InvoiceDetail> {
  const response = await submit(form, token);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** The billing reference of a note of `original`. */
export const referenceTo = (original: { prefixId: string; numericId: string; type: string }) => ({
  type: original.type as 'FACTURA' | 'BOLETA',
  prefixId: original.prefixId,
  numericId: original.numericId,
});

export async function detailOf(invoice: { supplierId: string; type: string; id: string }, token?: string) {
  const response = await call<InvoiceDetail>(routes.getInvoice, {
    token: token ?? (await adminToken()),
    path: pathOf(invoice),
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

/** Waits for SUNAT's simulator to validate the document. */
export const validated = (invoice: { supplierId: string; type: string; id: string }) =>
  until(
    async () => {
      const detail = await detailOf(invoice);
      return detail.certStatus === 'VALID' && detail;
    },
    { message: `SUNAT's answer on ${invoice.id}` },
  );

/** The SUNAT simulator's control API. */
export async function sunatControl(route: string, body: unknown): Promise<Response> {
  return fetch(`${stage().endpoints.sunat}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** A purchase order of the supplier at the company, in the portal and in SAP, with an HES of `net`. */
export async function orderWithHes(supplierId: string, client: string, net: number, currency: 'PEN' | 'USD' = 'PEN') {
  const order = `46${randomInt(10_000_000, 99_999_999)}`;
  const hes = await orderWithDocument({
    kind: 'SERVICE_SHEET',
    client,
    supplierId,
    purchaseOrder: order,
    currency,
    amount: net,
  });
  await stageSap('/__control/documents', {
    purchaseOrders: [{ id: order, issuerTaxId: supplierId, acquirerTaxId: client, currency }],
    conformityDocuments: [
      {
        kind: 'SERVICE_SHEET',
        documentId: hes.documentId,
        purchaseOrder: order,
        fiscalYear: '2026',
        issuerTaxId: supplierId,
        acquirerTaxId: client,
        amount: net,
        currency,
      },
    ],
  });
  return { order, hes: hes.documentId };
}

/** The review data of an invoice of the company (PUT), with the given orders and documents. */
export function reviewBody(
  client: string,
  change: { operationType?: string; purchaseOrders?: string[]; serviceSheets?: string[]; attachments?: string[] },
) {
  const office = OFFICE_LOCATIONS[client]![0]!;
  return {
    operationType: change.operationType ?? 'SERVICES',
    responsibleId: EMPLOYEES[client]![0]!.id,
    officeId: office.office,
    locationId: office.id,
    purchaseOrders: change.purchaseOrders ?? [],
    serviceSheets: change.serviceSheets ?? [],
    materialDocs: [],
    attachments: change.attachments ?? [],
  };
}

/** A factura validated by SUNAT, completed with an order and an HES of its net amount, approved and posted in SAP. */
export async function postedOriginal(supplier: { taxId: string; name: string }, form: Partial<DocumentForm> = {}) {
  const token = await adminToken();
  const original = await registered({ supplier, ...form });
  await validated(original);
  const { order, hes } = await orderWithHes(
    supplier.taxId,
    original.client,
    original.amount - original.taxAmount,
    original.currency,
  );
  const completed = await call<InvoiceDetail>(routes.updateInvoice, {
    token,
    path: pathOf(original),
    body: reviewBody(original.client, { purchaseOrders: [order], serviceSheets: [hes] }),
  });
  expect(completed.status, JSON.stringify(completed.body)).toBe(200);
  const approved = await call<InvoiceDetail>(routes.approveInvoice, { token, path: pathOf(original) });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  const posted = await until(
    async () => {
      const detail = await detailOf(original);
      return detail.sapDocument && detail;
    },
    { message: `the MIRO of ${original.id}` },
  );
  return { original: posted, order, hes };
}

/** A note of `original`, validated by SUNAT and completed as an adjustment of it. */
export async function completedNote(
  original: InvoiceDetail,
  form: Partial<DocumentForm> & { type: 'NOTA_DE_CREDITO' | 'NOTA_DE_DEBITO' },
) {
  const token = await adminToken();
  const note = await registered({
    supplier: { taxId: original.supplierId, name: original.supplierName },
    client: original.client,
    currency: original.currency,
    billingReference: referenceTo(original),
    noteReasonCode: form.type === 'NOTA_DE_CREDITO' ? '09' : '01',
    amount: 1_180,
    taxAmount: 180,
    ...form,
  });
  await validated(note);
  const completed = await call<InvoiceDetail>(routes.updateInvoice, {
    token,
    path: pathOf(note),
    body: reviewBody(note.client, {
      operationType: original.operationType ?? 'SERVICES',
      purchaseOrders: [...original.purchaseOrders],
    }),
  });
  expect(completed.status, JSON.stringify(completed.body)).toBe(200);
  return completed.body;
}

/** The MIRO record of an invoice once POSTED and told. */
export function postedRecord(invoice: { supplierId: string; type: string; id: string }) {
  const key = keys.miroOutbox(invoice.supplierId, invoice.type, invoice.id);
  // A posting whose worker died is read back from SAP by the outbox sweeper once its lease ends.
  return driveUntil(
    `the MIRO of ${invoice.id}`,
    ['OutboxSweeper'],
    async () => {
      const record = await table().get(key);
      return record?.state === 'POSTED' && record.notifiedAt ? record : null;
    },
    { timeout: 25_000 },
  );
}

/**
 * The corpus' nota de crédito (tests/fixtures/ubl/nota-credito-ubl21.xml: S/ 1,180.00, catálogo 09 reason 07) as the
 * demo supplier issues it to the demo company, numbered FC01-`numericId`, modifying `original` (its BillingReference
 * and DiscrepancyResponse name it, padded as SUNAT's XML pads it).
 */
export function creditNoteXml(options: { numericId: string; original: { prefixId: string; numericId: string } }) {
  const original = `${options.original.prefixId}-${options.original.numericId.padStart(8, '0')}`;
  const xml = tenantFixture('ubl/nota-credito-ubl21.xml')
    .replaceAll('F001-00000458', original)
    .replace('FC01-00000012', `FC01-${options.numericId}`);
  return Buffer.from(xml, 'utf8');
}
