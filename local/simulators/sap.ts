import type { RunningService } from '../stand-ins/types.js';
import { startSimulator } from './http.js';
import { controlRoutes } from './sap/control-routes.js';
import { invoiceRoutes } from './sap/invoice-routes.js';
import { closeJournal, createSapState, type SapOptions } from './sap/state.js';

export { LOCAL_SAP_CREDENTIALS, localCompanyCodes } from './sap/state.js';

export interface SapSimulator extends RunningService {
  /** What `POST /__control/schedules/{id}` runs: the local stage plugs its scheduled jobs in here. */
  setScheduleRunner(run: (scheduleId: string) => Promise<void>): void;
}

/**
 * S/4HANA as the portal sees it, on the local stage:
 * - API_SUPPLIERINVOICE_PROCESS_SRV: the CSRF handshake (token bound to a session cookie) and the
 *   A_SupplierInvoice deep insert with the three-way match (the purchase order belongs to the
 *   supplier and company, the HES/MIGO belongs to that order, the amounts add up within a cent).
 *   Repeatability-Request-ID is honoured: a repeated request answers the first document and posts
 *   nothing. Other duplicates are not refused (SAP only warns), so a double posting shows in the count.
 *   A property the entity's metadata does not declare is refused. A credit memo (SupplierInvoiceIsCreditMemo 'X')
 *   or a subsequent debit names the invoice it adjusts (InvoiceReference, InvoiceReferenceFiscalYear): that
 *   invoice exists for the same supplier and company, the lines are its purchase orders (IsSubsequentDebitCredit
 *   'X': no HES or MIGO), and a credit takes at most what is left of it (a note never credits more than its original).
 *   GET A_SupplierInvoice with `$filter` (eq … and eq …) on the header fields finds what was posted, with its
 *   credit-memo flag and invoice reference. SAP also holds the demo world's invoices from before the portal.
 * - The purchase orders, HES and MIGO it knows: the seed's (buildWorld), plus those registered with
 *   `POST /__control/documents` — tests that create documents in DynamoDB register them here too, as
 *   SAP is where they really come from. Unknown documents are refused.
 * - The withholding tax data of a posting (A_SuplrInvcHeaderWhldgTax: detracción, retención del IGV) checked
 *   against the companies that are agentes de retención and the suppliers that are exempt (withholdingsOf).
 * - Payment runs: recorded with `POST /__control/payment-run`, read through ZPORTAL_PAYMENT_RUN_SRV; a paid item
 *   carries its remittance (payment document, method, amount).
 * Control API (no auth): GET /__control/postings, POST /__control/fail, POST /__control/documents,
 * POST /__control/payment-run, POST|GET /__control/schedules/{id}. Its parts: sap/state.ts (what SAP holds, its journal),
 * sap/metadata.ts and sap/checks.ts (what it refuses), sap/invoice-routes.ts and sap/control-routes.ts.
 */
export async function startSapSimulator(port: number, host: string, options: SapOptions = {}): Promise<SapSimulator> {
  const state = createSapState(options);
  const service = await startSimulator('sap', port, host, [...invoiceRoutes(state), ...controlRoutes(state)]);
  return {
    ...service,
    async stop() {
      await service.stop();
      closeJournal(state);
    },
    setScheduleRunner(run) {
      state.scheduleRunner = run;
    },
  };
}
