import type { Locator, Page } from 'playwright-core';
import { withCheckDigit, type ConformityKind, type Invoice, type InvoiceStatus } from '@portal/shared';
import { CLIENTS, TENANT } from './tenant.js';
import { anInvoice, between, withIgv } from './builders.js';
import { orderWithDocument, table } from './fixtures.js';

/** What the manager reads in the invoice detail sidebar (spec §2, §5, §9). */
export const DETAIL_TEXT = {
  loading: 'Cargando detalle...',
  complete: 'Completar datos',
  approve: 'Aprobar',
  reject: 'Rechazar',
  history: 'Historial',
  save: 'Guardar',
  saved: 'Los datos del comprobante se guardaron correctamente.',
  operationType: 'Tipo de operación',
  responsible: 'Responsable',
  office: 'Oficina',
  location: 'Ubicación',
  purchaseOrders: 'Órdenes de compra (OC)',
  serviceSheets: 'Códigos HES',
  suggestionsLoading: 'Buscando conformidades de la orden de compra...',
  materialDocs: 'Códigos MIGO',
  withoutOrder: 'Sin orden de compra',
  pdfRequired: 'Para validar un comprobante sin orden de compra debe adjuntar documentos de sustento en PDF.',
  hesWithGoods: 'No es posible agregar HES cuando el tipo de operación es de bienes.',
  approved: 'El comprobante ha sido aprobado. Se ha notificado al proveedor.',
  rejected: 'El comprobante ha sido rechazado. Se ha notificado al proveedor.',
  reasonRequired: 'Por favor, ingrese el motivo de rechazo del comprobante.',
  reason: 'Motivo de rechazo',
  allowRetry: /Permitir reintentar/,
  retryAllowed: 'Permitido: el proveedor puede volver a enviar el comprobante.',
} as const;

/** The company and supplier of the review journeys: the manager's first company, a supplier of its own. */
export const REVIEW_COMPANY = CLIENTS[0]!;
/**
 * A high RUC: the list shows the newest first, and among today's invoices the highest RUC first. The tenant's own
 * (its two digits in the middle), as the files that review invoices may run at once, each on its tenant.
 */
export const REVIEW_SUPPLIER = {
  taxId: withCheckDigit(`20991${String(TENANT).padStart(2, '0')}001`),
  name: 'Proveedor Revisión E2E S.A.C.',
};

let sequence = Math.floor(Date.now() / 1000) % 90_000_000;
const next = () => String(10_000_000 + sequence++);

/** Today in Lima as the API stores dates (YYYY-MM-DD). */
export function todayInLima(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Lima' }).format(new Date());
}

export interface InvoiceToReview {
  readonly invoice: Invoice;
  /** SERIE-CORRELATIVO as the list and the sidebar show it. */
  readonly number: string;
  /** The purchase order and its free conformity document (absent for an invoice without order). */
  readonly purchaseOrder: string | null;
  readonly document: { kind: ConformityKind; documentId: string } | null;
}

/**
 * A FACTURA to review, issued today, so that it heads the manager's list (newest first): PENDING,
 * SUNAT-valid, with a purchase order of its supplier and a free conformity document of `kind` whose
 * amount is the invoice amount without IGV (none for `null`). Stored and counted as intake does.
 */
export async function invoiceToReview(kind: ConformityKind | null): Promise<InvoiceToReview> {
  const numericId = next();
  const id = `FR01-${numericId}`;
  const net = 1000 + (Number(numericId) % 1000);
  const invoice = anInvoice({
    prefixId: 'FR01',
    numericId,
    ...between(REVIEW_SUPPLIER, REVIEW_COMPANY),
    ...withIgv(net),
    issuedAt: todayInLima(),
  });
  await table().putInvoice(invoice);
  if (!kind) return { invoice, number: id, purchaseOrder: null, document: null };
  const purchaseOrder = `PR${next()}`;
  const document = await orderWithDocument({
    kind,
    client: REVIEW_COMPANY.taxId,
    supplierId: REVIEW_SUPPLIER.taxId,
    purchaseOrder,
    currency: 'PEN',
    amount: net,
  });
  return { invoice, number: id, purchaseOrder, document };
}

/** The row of the invoices table that shows `number`, or its card on a phone (the list's own, support/invoices.ts). */
export { invoiceRow } from './invoices.js';

/** The sidebar, once it shows the invoice (not while 'Cargando detalle...'), in `status` if given. */
export function detailPanel(page: Page, invoiceId: string, status?: InvoiceStatus): Locator {
  const inStatus = status ? `[data-status="${status}"]` : '';
  return page.locator(`[data-testid="invoice-detail-panel"][data-invoice-id="${invoiceId}"]${inStatus}`);
}

/** Opens the sidebar from the invoice number in the list, as a user does, and waits for the detail. */
export async function openInvoiceDetail(page: Page, number: string): Promise<Locator> {
  await page.getByTestId('invoice-number').getByText(number, { exact: true }).click();
  const panel = detailPanel(page, number);
  await panel.waitFor({ timeout: 30_000 });
  return panel;
}

/** A form field of the sidebar by its label (Cloudscape ties the label to its control). */
export function field(panel: Locator, label: string): Locator {
  return panel.getByLabel(label, { exact: true });
}

/** Adds an OC, HES or MIGO code in its token input (typed, then Enter). */
export async function enterCode(panel: Locator, label: string, code: string): Promise<void> {
  const input = field(panel, label);
  await input.fill(code);
  await input.press('Enter');
}

/** Chooses an option of a Cloudscape select in the sidebar. */
export async function choose(page: Page, panel: Locator, label: string, option: string): Promise<void> {
  await field(panel, label).click();
  await page.getByRole('option', { name: option }).first().click();
}

/** Picks `employee` as the responsible (typed by first name, then chosen in the list) and `office` as the office. */
export async function chooseResponsibleAndOffice(
  page: Page,
  panel: Locator,
  employee: { readonly fullName: string },
  office: string,
): Promise<void> {
  await field(panel, DETAIL_TEXT.responsible).fill(employee.fullName.split(' ')[0]!);
  await page
    .getByRole('option', { name: new RegExp(employee.fullName) })
    .first()
    .click();
  await choose(page, panel, DETAIL_TEXT.office, office);
}
