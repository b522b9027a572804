// TEMPORARY: the lead's contract (functions/src/use-cases/intake.ts, "Document intake from files"), copied until it
// lands on main; delete this file after the merge and import IncomingFiles and FileIntakeOutcome from there.
import type { Invoice } from '@portal/shared';

/** A document that arrived as files (a zip's entries, an e-mail's attachments). */
export interface IncomingFiles {
  readonly sourceKey: string;
  readonly channel: 'ZIP' | 'EMAIL';
  readonly xml: { readonly name: string; readonly bytes: Uint8Array };
  readonly pdf?: { readonly name: string; readonly bytes: Uint8Array };
  readonly cdr?: { readonly name: string; readonly bytes: Uint8Array };
}
export type FileIntakeOutcome =
  | { readonly outcome: 'ACCEPTED'; readonly invoice: Invoice; readonly cdrWarning: string | null }
  | {
      readonly outcome: 'ALREADY_EXISTS';
      readonly invoiceId: string;
      readonly code: 'ERROR_INVOICE_ALREADY_EXISTS';
      readonly message: string;
    }
  | { readonly outcome: 'REFUSED'; readonly code: string; readonly message: string };
