import { expect } from 'vitest';
import { routes, type Invoice } from '@portal/shared';
import { EMPLOYEES, OFFICE_LOCATIONS } from './tenant.js';
import { call } from './api.js';
import type { ReviewFixture } from './fixtures.js';
import { stage } from './stage.js';

/** The SAP simulator's control API (GET /__control/postings, POST /__control/fail, /documents …). */
export async function sapControl<T = any>(endpoint: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${endpoint}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${path}: ${await response.clone().text()}`).toBeLessThan(300);
  return (await response.json()) as T;
}

/** The control API of the test stage's SAP simulator (local/simulators/sap.ts). */
export const stageSap = <T = any>(path: string, body?: unknown): Promise<T> =>
  sapControl<T>(stage().endpoints.sap, path, body);

/** Tells the SAP simulator about fixtures' purchase orders and documents, as SAP would hold them. */
export async function registerWithSap(endpoint: string, fixtures: readonly ReviewFixture[]): Promise<void> {
  await sapControl(endpoint, '/__control/documents', {
    purchaseOrders: fixtures.map((f) => ({
      id: f.purchaseOrder,
      issuerTaxId: f.invoice.supplierId,
      acquirerTaxId: f.invoice.client,
      currency: f.invoice.currency,
    })),
    conformityDocuments: fixtures.map((f) => ({
      kind: f.document!.kind,
      documentId: f.document!.documentId,
      purchaseOrder: f.purchaseOrder,
      fiscalYear: '2026',
      issuerTaxId: f.invoice.supplierId,
      acquirerTaxId: f.invoice.client,
      amount: Math.round((f.invoice.amount - f.invoice.taxAmount) * 100) / 100,
      currency: f.invoice.currency,
    })),
  });
}

/** How many times SAP posted each invoice of a supplier (`{supplier}/{invoiceId}` → count). */
export async function postingsAtSap(endpoint: string, supplierId: string): Promise<Record<string, number>> {
  return (
    await sapControl<{ byInvoice: Record<string, number> }>(endpoint, `/__control/postings?supplierId=${supplierId}`)
  ).byInvoice;
}

export const invoicePath = (invoice: Pick<Invoice, 'supplierId' | 'type' | 'id'>) => ({
  supplierId: invoice.supplierId,
  invoiceType: invoice.type,
  invoiceId: invoice.id,
});

/** Completes a service-sheet fixture through the API (as a manager or admin would), ready to approve. */
export async function complete(f: ReviewFixture, token: string, options: { apiUrl?: string } = {}): Promise<void> {
  const employee = EMPLOYEES[f.invoice.client]![0]!;
  const office = OFFICE_LOCATIONS[f.invoice.client]![0]!;
  const completed = await call(routes.updateInvoice, {
    token,
    path: invoicePath(f.invoice),
    ...(options.apiUrl ? { apiUrl: options.apiUrl } : {}),
    body: {
      operationType: 'SERVICES',
      responsibleId: employee.id,
      officeId: office.office,
      locationId: office.id,
      purchaseOrders: [f.purchaseOrder!],
      serviceSheets: [f.document!.documentId],
      materialDocs: [],
      attachments: [],
    },
  });
  expect(completed.status, JSON.stringify(completed.body)).toBe(200);
}
