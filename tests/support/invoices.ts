import { randomInt } from 'node:crypto';
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { keys, routes, type Invoice, type InvoiceDetail, type InvoiceSummary } from '@portal/shared';
import { CLIENTS, EMPLOYEES, OFFICE_LOCATIONS, SUPPLIERS, tenantFixture } from './tenant.js';
import { outcomeByConvention } from '../../local/simulators/sunat.js';
import { call, idTokenOf } from './api.js';
import { orderWithDocument, table } from './fixtures.js';
import { demoUser } from './stage.js';
import { MINIMAL_PDF, uploadAs } from './uploads.js';
import { runSchedule } from './schedules.js';
import { INVOICES_TITLE, signInWithPassword } from './web.js';
import { until } from './until.js';
import { stageSap } from './sap.js';

/** What the invoices screen shows, as a user reads it (web/src/pages/invoices/messages.ts). */
export const INVOICES_TEXT = {
  /** The 'Cargar XML' button's file input (the detail's 'Descargar XML del comprobante' is another control). */
  uploadXml: 'Cargar XML de un comprobante',
  newInvoice: 'Nuevo comprobante',
  register: 'Registrar comprobante',
  received: 'Buen trabajo',
  receivedMessage: 'Los datos de su comprobante han sido recepcionados correctamente.',
  understood: 'Entendido',
  pdfRequired: 'Para crear un comprobante debe adjuntar un archivo PDF.',
  moreFilters: 'Más filtros',
  /** On a phone, the button the filters wait behind. */
  filters: 'Filtros',
  lessFilters: 'Menos filtros',
  clearFilters: 'Limpiar filtros',
  refresh: 'Actualizar',
  downloadXml: 'Descargar XML',
  viewPdf: 'Ver PDF',
  viewAttachments: 'Ver adjuntos',
  close: 'Cerrar',
  fileActions: (invoiceNumber: string) => `Archivos del comprobante ${invoiceNumber}`,
  attachmentsTitle: (invoiceNumber: string) => `Adjuntos del comprobante ${invoiceNumber}`,
  preferences: 'Preferencias',
  rowsPerPage: 'Filas por página',
  pageSizeOption: (size: number) => `${size} comprobantes`,
  confirm: 'Confirmar',
  nextPage: 'Página siguiente',
  pageLabel: (page: number) => `Página ${page}`,
} as const;

/**
 * A correlative of this run: unique on the shared stage (time-based, as the fixtures' ids), one the SUNAT simulator
 * answers valid at once (not one of its endings for a document absent, annulled, slow or failing).
 */
let last = 0;
export function freshCorrelative(): string {
  let value = Math.max(last + 1, (Date.now() % 9_000_000) + 1_000_000);
  while (outcomeByConvention(value) !== 'VALID') value += 1;
  last = value;
  return String(value);
}

/**
 * A random correlative of seven or eight digits (SUNAT's longest) that the SUNAT simulator answers valid at once, for a
 * test whose documents must not meet another run's on a stage kept between runs (the time-based one comes round every
 * two and a half hours). A test drawing its own number ended in 90, 91 or 94 three times in a hundred, and waited
 * for a 'Válido' that never came (CI's api-clients timeout).
 */
export function randomCorrelative(): string {
  let value: number;
  do value = randomInt(1_000_000, 100_000_000);
  while (outcomeByConvention(value) !== 'VALID');
  return String(value);
}

/**
 * A UBL 2.1 factura of proveedor@demo.pe (SUPPLIERS[0]) to CLIENTS[0], from the corpus document with a
 * correlative of its own: S/ 11,800.00 (10,000.00 + IGV 1,800.00).
 */
export function ublFactura(correlative: string): { bytes: Buffer; invoiceId: string; net: number; amount: number } {
  const xml = tenantFixture('ubl/factura-ubl21-credito.xml');
  const bytes = Buffer.from(xml.replaceAll('F001-00000458', `F001-${correlative.padStart(8, '0')}`));
  return { bytes, invoiceId: `F001-${Number(correlative)}`, net: 10_000, amount: 11_800 };
}

/**
 * Cloudscape's AppLayout (classic) renders its phone toolbar as `<nav aria-orientation="horizontal">`,
 * an attribute the navigation role does not allow: a known issue of the shell's component
 * (web/src/layout/app-shell.tsx), not of the invoices screen, reported to be fixed there. Only that
 * violation on that element is set aside; anything else on the page still fails the check.
 */
export function withoutShellToolbarIssue<T extends { id: string; targets: string[] }>(violations: T[]): T[] {
  return violations.filter(
    (violation) =>
      !(
        violation.id === 'aria-allowed-attr' &&
        violation.targets.every((target) => target.includes('mobile-toolbar-nav'))
      ),
  );
}

/** The invoices as a phone shows them (up to 688 px wide): one card each, in the list the screen's title names. */
export function invoiceCards(page: Page): Locator {
  return page.getByRole('list', { name: INVOICES_TITLE }).getByRole('listitem');
}

/** The row of the invoices table whose number is `invoiceNumber`, or its card on a phone. */
export function invoiceRow(page: Page, invoiceNumber: string): Locator {
  return page
    .getByRole('row')
    .or(invoiceCards(page))
    .filter({ has: page.getByTestId('invoice-number').getByText(invoiceNumber, { exact: true }) });
}

/** The visible texts of one column over the rows of the table. */
export function columnTexts(page: Page, testId: string): Promise<string[]> {
  return page
    .getByTestId(testId)
    .allInnerTexts()
    .then((texts) => texts.map((text) => text.trim()));
}

/** Sends `factura` with 'Cargar XML', as the supplier picks its file. */
export async function uploadXml(page: Page, factura: { readonly invoiceId: string; readonly bytes: Buffer }) {
  await page.getByLabel(INVOICES_TEXT.uploadXml).setInputFiles({
    name: `${factura.invoiceId}.xml`,
    mimeType: 'application/xml',
    buffer: factura.bytes,
  });
}

/** Signs the demo supplier in with its password, as a person does, and opens 'Nuevo comprobante': its panel. */
export async function openNewInvoice(page: Page): Promise<Locator> {
  await signInWithPassword(page, demoUser('SUPPLIER'));
  await page.getByRole('button', { name: INVOICES_TEXT.newInvoice }).click();
  return page.getByTestId('new-invoice-panel');
}

/** Waits for the table to show what the API now holds, pressing 'Actualizar' as a user would. */
export async function refreshUntil(page: Page, probe: () => Promise<boolean>, timeout = 45_000): Promise<void> {
  await expect
    .poll(
      async () => {
        if (await probe()) return true;
        await page.getByRole('button', { name: INVOICES_TEXT.refresh }).click();
        return false;
      },
      { timeout, interval: 1000 },
    )
    .toBe(true);
}

const runPaymentSync = () => runSchedule('PaymentSync');

const COMPANY = CLIENTS[0]!;
const SUPPLIER = SUPPLIERS[0]!;

export function managerToken(): Promise<string> {
  return idTokenOf(demoUser('MANAGER').username, demoUser('MANAGER').password);
}

export function supplierToken(): Promise<string> {
  return idTokenOf(demoUser('SUPPLIER').username, demoUser('SUPPLIER').password);
}

/**
 * Completes the demo supplier's `invoiceId` at CLIENTS[0] with purchase order `order` and a free HES of `net` that
 * the table and SAP's simulator hold, then approves it, as the manager's review does: COMPLETED, then ACCEPTED.
 */
export async function completeAndApprove(
  manager: string,
  invoiceId: string,
  { order, net }: { order: string; net: number },
): Promise<void> {
  const invoicePath = { supplierId: SUPPLIER.taxId, invoiceType: 'FACTURA', invoiceId };
  const hes = await orderWithDocument({
    kind: 'SERVICE_SHEET',
    client: COMPANY.taxId,
    supplierId: SUPPLIER.taxId,
    purchaseOrder: order,
    currency: 'PEN',
    amount: net,
  });
  await stageSap('/__control/documents', {
    purchaseOrders: [{ id: order, issuerTaxId: SUPPLIER.taxId, acquirerTaxId: COMPANY.taxId, currency: 'PEN' }],
    conformityDocuments: [
      {
        kind: 'SERVICE_SHEET',
        documentId: hes.documentId,
        purchaseOrder: order,
        fiscalYear: '2026',
        issuerTaxId: SUPPLIER.taxId,
        acquirerTaxId: COMPANY.taxId,
        amount: net,
        currency: 'PEN',
      },
    ],
  });
  const office = OFFICE_LOCATIONS[COMPANY.taxId]![0]!;
  const completed = await call<InvoiceDetail>(routes.updateInvoice, {
    token: manager,
    path: invoicePath,
    body: {
      operationType: 'SERVICES',
      responsibleId: EMPLOYEES[COMPANY.taxId]![0]!.id,
      officeId: office.office,
      locationId: office.id,
      purchaseOrders: [order],
      serviceSheets: [hes.documentId],
    },
  });
  expect(completed.body.status).toBe('COMPLETED');
  const approved = await call<InvoiceDetail>(routes.approveInvoice, { token: manager, path: invoicePath });
  expect(approved.body.status).toBe('ACCEPTED');
}

/**
 * The staff's part of an invoice of proveedor@demo.pe at CLIENTS[0], done through the API: SUNAT's
 * simulator validates it, the manager completes it with a purchase order and a HES of its own (known to
 * the SAP simulator too) and approves it, SAP posts the MIRO, and two payment runs schedule and pay it.
 */
export async function followToPaid(
  invoiceId: string,
  net: number,
  dates: {
    scheduledAt: string;
    paidAt: string;
    /** The remittance SAP reports with the payment (its own numbering and a transfer otherwise). */
    paymentDocument?: string;
    paymentMethod?: 'T' | 'C';
  },
) {
  const manager = await managerToken();
  const invoicePath = { supplierId: SUPPLIER.taxId, invoiceType: 'FACTURA', invoiceId };
  const detail = async () => (await call<InvoiceDetail>(routes.getInvoice, { token: manager, path: invoicePath })).body;

  await until(async () => (await detail()).certStatus === 'VALID', { message: 'SUNAT validation' });

  await completeAndApprove(manager, invoiceId, { order: `45${Date.now() % 100_000_000}`, net });
  await until(async () => (await detail()).sapDocument ?? null, { message: 'the SAP posting' });

  const entry = { supplierId: SUPPLIER.taxId, invoiceId, invoiceType: 'FACTURA' };
  await stageSap('/__control/payment-run', { invoices: [{ ...entry, scheduledAt: dates.scheduledAt }] });
  await runPaymentSync();
  const { paymentDocument, paymentMethod } = dates;
  await stageSap('/__control/payment-run', {
    invoices: [{ ...entry, scheduledAt: dates.scheduledAt, paidAt: dates.paidAt, paymentDocument, paymentMethod }],
  });
  await runPaymentSync();
  expect(await detail()).toMatchObject({ status: 'PAID', paidAt: dates.paidAt });
}

/** A PNG of one pixel, for an attachment that is not a PDF. */
const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/**
 * An invoice of proveedor@demo.pe to CLIENTS[0] registered with its PDF (POST /invoices/without-xml),
 * then given two attachments (a PDF and a PNG) as a manager's review leaves them: written on the item
 * itself, since a review needs SUNAT's answer first and this invoice is the test's own.
 */
export async function invoiceWithAttachments(): Promise<Invoice> {
  const token = await supplierToken();
  const pdfUrl = await uploadAs(token, 'INVOICE_PDF', MINIMAL_PDF, 'application/pdf', 'comprobante.pdf');
  const created = await call<Invoice>(routes.createInvoiceWithoutXml, {
    token,
    body: {
      prefixId: 'F001',
      numericId: freshCorrelative(),
      type: 'FACTURA',
      clientTaxId: COMPANY.taxId,
      supplierTaxId: SUPPLIER.taxId,
      supplierName: SUPPLIER.name,
      currency: 'PEN',
      amount: 590,
      taxAmount: 90,
      issueDate: '2026-11-02',
      pdfUrl,
    },
  });
  expect(created.status).toBe(201);
  const attachments = [
    await uploadAs(token, 'ATTACHMENT', MINIMAL_PDF, 'application/pdf', 'sustento.pdf'),
    await uploadAs(token, 'ATTACHMENT', ONE_PIXEL_PNG, 'image/png', 'foto.png'),
  ];
  // After SUNAT's answer, the only other writer of a new invoice, so that nothing overwrites this one.
  const key = keys.invoice(created.body.supplierId, created.body.type, created.body.id);
  const item = await until(
    async () => {
      const stored = await table().get(key);
      return stored?.certStatus !== 'PENDING' && stored;
    },
    { message: 'SUNAT validation' },
  );
  await table().put({ ...item, attachments, version: Number(item.version) + 1 });
  return { ...created.body, certStatus: item.certStatus, attachments };
}

/** Those of `ids` among the invoices `token` sees at `company` (every page of the list read). */
export async function listedAt(
  token: string,
  company: string,
  ids: readonly string[],
  apiUrl?: string,
): Promise<InvoiceSummary[]> {
  const wanted = new Set(ids);
  const found: InvoiceSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await call<{ items: InvoiceSummary[]; nextCursor: string | null }>(routes.listInvoices, {
      apiUrl,
      token,
      query: { client: company, limit: 100, ...(cursor ? { cursor } : {}) },
    });
    expect(page.status).toBe(200);
    found.push(...page.body.items.filter((invoice) => wanted.has(invoice.id)));
    cursor = page.body.nextCursor ?? undefined;
  } while (cursor);
  return found;
}

/**
 * Turns on columns of the invoices table that show only on demand ('Preferencias'), as the person's browser would
 * remember them: set before the app loads, for every page of this context.
 */
export async function showInvoiceColumns(
  page: Page,
  level: 'SUPPLIER' | 'MANAGER' | 'ADMIN',
  columns: readonly string[],
): Promise<void> {
  const value = JSON.stringify({ contentDisplay: columns.map((id) => ({ id, visible: true })) });
  await page.addInitScript(({ key, stored }) => (globalThis as any).localStorage.setItem(key, stored), {
    key: `portal.invoices.display.${level}`,
    stored: value,
  });
}
