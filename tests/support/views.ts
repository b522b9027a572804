import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { formatMoney, type ConformityKind, type DashboardCounts } from '@portal/shared';
import type { SeedConformityDocument, SeedWorld } from './tenant.js';

/** What the manager's and admin's views say (spec §2), as a user reads them. */
export const VIEWS_TEXT = {
  serviceSheetsTitle: 'Conformidades - HES',
  materialDocsTitle: 'Conformidades - MIGO',
  dashboardTitle: 'Panel del gestor',
  refresh: 'Actualizar',
  clientsTitle: 'Sociedades',
  companyMenu: 'Sociedad activa',
  available: 'Disponible',
  issuerFilter: 'RUC emisor',
  responsibleFilter: 'Responsable de la orden de compra',
  month: 'Mes',
  year: 'Año',
  allPeriod: 'Periodo: Todo el periodo',
  clientsFilter: 'Buscar sociedades por nombre o RUC',
  logoOf: (name: string) => `Logo de ${name}`,
  months: [
    'Enero',
    'Febrero',
    'Marzo',
    'Abril',
    'Mayo',
    'Junio',
    'Julio',
    'Agosto',
    'Septiembre',
    'Octubre',
    'Noviembre',
    'Diciembre',
  ],
} as const;

/** The columns of a HES/MIGO row, in the screen's order. */
export type ConformityRow = readonly [
  fiscalYear: string,
  issuer: string,
  acquirer: string,
  documentId: string,
  deliveryNote: string,
  purchaseOrder: string,
  amount: string,
  associatedInvoice: string,
];

/** A seed document as its row reads on screen. */
export function rowOfSeed(doc: SeedConformityDocument): ConformityRow {
  return [
    doc.fiscalYear,
    doc.issuerTaxId,
    doc.acquirerTaxId,
    doc.documentId,
    doc.deliveryNote ?? '—',
    doc.purchaseOrder,
    formatMoney(doc.amount, doc.currency),
    doc.associatedInvoice ?? VIEWS_TEXT.available,
  ];
}

/**
 * The rows the screen should list for an acquirer's documents of a kind, newest fiscal year first,
 * then by document number (the API's order).
 */
export function expectedConformityRows(
  world: SeedWorld,
  kind: ConformityKind,
  acquirer: string,
  match: (doc: SeedConformityDocument) => boolean = () => true,
): ConformityRow[] {
  const orderKey = (doc: SeedConformityDocument) => `${doc.fiscalYear}#${doc.documentId}`;
  return world.conformityDocuments
    .filter((doc) => doc.kind === kind && doc.acquirerTaxId === acquirer && match(doc))
    .sort((a, b) => (orderKey(a) < orderKey(b) ? 1 : orderKey(a) > orderKey(b) ? -1 : 0))
    .map(rowOfSeed);
}

/** The rows of the HES/MIGO table as the user reads them (the visible text of each cell). */
export async function conformityRows(page: Page): Promise<string[][]> {
  const rows = page.locator('tbody tr').filter({ has: page.getByTestId('conformity-document') });
  return rows.evaluateAll((trs) =>
    trs.map((tr) =>
      Array.from((tr as unknown as { children: ArrayLike<{ textContent: string | null }> }).children).map((cell) =>
        (cell.textContent ?? '').trim(),
      ),
    ),
  );
}

/** Waits until the HES/MIGO table has settled: rows, the empty state or an error. */
export async function settledConformity(page: Page, title: string): Promise<void> {
  await page.getByRole('heading', { name: title, level: 1 }).waitFor();
  await page
    .getByTestId('conformity-document')
    .or(page.getByTestId('conformity-empty'))
    .or(page.getByTestId('conformity-error'))
    .first()
    .waitFor({ timeout: 30_000 });
  expect(await page.getByTestId('conformity-error').count()).toBe(0);
}

/** Follows an entry of the side navigation, as a user does. */
export async function openFromMenu(page: Page, label: string): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: label, exact: true }).click();
}

/** Chooses the active company in the header's company menu. */
export async function chooseCompanyInHeader(page: Page, companyName: string): Promise<void> {
  await page.getByRole('button', { name: VIEWS_TEXT.companyMenu }).click();
  await page.getByRole('menuitem', { name: new RegExp(escapeRegExp(companyName)) }).click();
}

/** Picks an option of a Cloudscape select, found by its form field's label. */
export async function chooseOption(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^${escapeRegExp(label)}\\b`) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const STATUS_COUNTERS = ['pending', 'completed', 'accepted', 'rejected', 'scheduled', 'paid'] as const;
const TYPE_COUNTERS = ['invService', 'invGoods', 'invWithoutPurchaseOrder', 'invUnassigned'] as const;

/**
 * The counts the dashboard shows, read from its tables of values (the charts' text alternative):
 * each counter with the label of its row and its number.
 */
export async function dashboardCounts(page: Page): Promise<DashboardCounts> {
  const counts = {} as Record<keyof DashboardCounts, number>;
  for (const counter of STATUS_COUNTERS) {
    counts[counter] = Number(await page.getByTestId(`status-count-${counter}`).textContent());
  }
  for (const counter of TYPE_COUNTERS) {
    counts[counter] = Number(await page.getByTestId(`type-count-${counter}`).textContent());
  }
  counts.latePostings = Number(await page.getByTestId('dashboard-late-postings').textContent());
  counts.failedPostings = Number(await page.getByTestId('dashboard-failed-postings').textContent());
  counts.acquirerConformityOpen = Number(await page.getByTestId('dashboard-acquirer-conformity-open').textContent());
  counts.acquirerConformityPresumed = Number(
    await page.getByTestId('dashboard-acquirer-conformity-presumed').textContent(),
  );
  return counts;
}

/** Waits until the dashboard shows numbers (or an error) for the period it names. */
export async function settledDashboard(page: Page, periodText: string): Promise<void> {
  await page.getByRole('heading', { name: VIEWS_TEXT.dashboardTitle, level: 1 }).waitFor();
  await page.getByTestId('dashboard-period').filter({ hasText: periodText }).waitFor();
  await page
    .getByTestId('status-count-pending')
    .or(page.getByTestId('dashboard-error'))
    .first()
    .waitFor({ timeout: 30_000 });
  expect(await page.getByTestId('dashboard-error').count()).toBe(0);
}

/** What the dashboard's counts are computed from: an invoice row. */
type CountedRow = {
  status: string;
  operationType: string | null;
  acquirerConformity?: { state: string } | null;
};

/**
 * The counts of the dashboard computed from invoices (by status and by operation type), for a company
 * without late or failed SAP postings (the only ones the browser tests approve are at CLIENTS[0]).
 */
export function countsOf(invoices: CountedRow[]): DashboardCounts {
  const count = (match: (invoice: CountedRow) => boolean) => invoices.filter(match).length;
  return {
    pending: count((invoice) => invoice.status === 'PENDING'),
    completed: count((invoice) => invoice.status === 'COMPLETED'),
    accepted: count((invoice) => invoice.status === 'ACCEPTED'),
    rejected: count((invoice) => invoice.status === 'REJECTED'),
    scheduled: count((invoice) => invoice.status === 'SCHEDULED'),
    paid: count((invoice) => invoice.status === 'PAID'),
    invService: count((invoice) => invoice.operationType === 'SERVICES'),
    invGoods: count((invoice) => invoice.operationType === 'GOODS'),
    invUnassigned: count((invoice) => invoice.operationType === null),
    invWithoutPurchaseOrder: count((invoice) => invoice.operationType === 'WITHOUT_PURCHASE_ORDER'),
    acquirerConformityOpen: count((invoice) => invoice.acquirerConformity?.state === 'OPEN'),
    acquirerConformityPresumed: count((invoice) => invoice.acquirerConformity?.state === 'PRESUMED_CONFORMITY'),
    latePostings: 0,
    failedPostings: 0,
  };
}

/** Whether the page scrolls sideways (content wider than the viewport). */
export function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const root = (
      globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
    ).document.documentElement;
    return root.scrollWidth > root.clientWidth;
  });
}
