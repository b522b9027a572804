import type { Invoice } from '@portal/shared';
import type { Caller } from '../http/caller.js';

/*
 * TEMPORARY: the contract of the lead's `intake.fromFiles` (/tmp/h/contract.md), until the commit "Document intake
 * from files" lands on main; then these types are imported from ./intake.js and this file is deleted.
 */

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

export type FromFiles = (caller: Caller, files: IncomingFiles) => Promise<FileIntakeOutcome>;
