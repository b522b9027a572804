import type { Currency, Invoice } from '@portal/shared';
import { addCycledInvoices, worldDraft, type SeedConformityDocument, type SeedPurchaseOrder } from './invoice-cycle.js';
import { addNotesAndRucRiskCases, ORIGINAL_NOT_IN_PORTAL, ORIGINAL_NOT_IN_PORTAL_ORDER } from './notes-and-ruc-risk.js';
import { DEMO_PARTIES, type DemoParties } from './parties.js';

/**
 * The demo world of the local stage: the group's companies, their offices and staff, suppliers,
 * purchase orders, HES and MIGO, and invoices in every status. Deterministic, so tests derive their
 * expectations from this module instead of repeating numbers. Its fixtures: parties.ts (who), invoice-cycle.ts (the
 * invoices of every supplier at every company in every status) and notes-and-ruc-risk.ts (the notes and the NO
 * HABIDO supplier a person trying the stage looks for).
 */

export * from './parties.js';
export { DEMO_CREDIT_DETRACTION, type SeedConformityDocument, type SeedPurchaseOrder } from './invoice-cycle.js';
export { ORIGINAL_NOT_IN_PORTAL, ORIGINAL_NOT_IN_PORTAL_ORDER } from './notes-and-ruc-risk.js';

/** An invoice SAP holds (approved before the portal, or by the demo world's history), which notes may adjust. */
export interface LegacyPosting {
  readonly document: string;
  readonly fiscalYear: string;
  readonly acquirerTaxId: string;
  readonly supplierId: string;
  readonly invoiceId: string;
  readonly grossAmount: number;
  readonly currency: Currency;
  readonly purchaseOrders: readonly string[];
}

export interface SeedWorld {
  readonly invoices: Invoice[];
  readonly purchaseOrders: SeedPurchaseOrder[];
  readonly conformityDocuments: SeedConformityDocument[];
  /** What SAP already holds of the world: its approved facturas and the original of the note outside the portal. */
  readonly legacyPostings: LegacyPosting[];
}

/**
 * Invoices for every supplier at every company, cycling through all statuses; dated before `today`. A test tenant's
 * world (`parties` of tenantParties) is the demo's with its own companies, suppliers and numbers.
 */
export function buildWorld(
  today: Date = new Date('2026-11-01T00:00:00Z'),
  parties: DemoParties = DEMO_PARTIES,
): SeedWorld {
  const draft = worldDraft(parties);
  addCycledInvoices(draft, today, parties);
  addNotesAndRucRiskCases(draft, today, parties);
  const { invoices, purchaseOrders, conformityDocuments } = draft;
  return { invoices, purchaseOrders, conformityDocuments, legacyPostings: legacyPostingsOf(invoices, parties) };
}

/** SAP's postings of the world: every approved factura, and the original of the note outside the portal. */
function legacyPostingsOf(invoices: readonly Invoice[], parties: DemoParties): LegacyPosting[] {
  const approved = invoices.filter((invoice) => invoice.type === 'FACTURA' && invoice.approved);
  return [
    ...approved.map((invoice, i) => ({
      document: String(5100000001 + parties.tenant * 10_000 + i),
      fiscalYear: invoice.issuedAt.slice(0, 4),
      acquirerTaxId: invoice.client,
      supplierId: invoice.supplierId,
      invoiceId: invoice.id,
      grossAmount: invoice.amount,
      currency: invoice.currency,
      purchaseOrders: invoice.purchaseOrders,
    })),
    {
      document: String(5100009042 + parties.tenant),
      fiscalYear: '2025',
      acquirerTaxId: parties.clients[0]!.taxId,
      supplierId: parties.suppliers[0]!.taxId,
      invoiceId: ORIGINAL_NOT_IN_PORTAL.id,
      grossAmount: 2360,
      currency: 'PEN',
      purchaseOrders: [ORIGINAL_NOT_IN_PORTAL_ORDER],
    },
  ];
}
