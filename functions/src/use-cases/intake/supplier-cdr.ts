import {
  PortalError,
  cdrContradiction,
  cdrVerdictOf,
  type Invoice,
  type InvoiceForCdr,
  type SupplierCdr,
} from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { assertCdrOfDocument, type ParsedCdr } from '../../ubl/cdr.js';
import type { IncomingDocument, IncomingFiles, IntakeDeps, ReceivedFile } from './intake-deps.js';

/** The CDR's evidence for the invoice being stored, given the invoice and the time of its intake. */
export type SupplierCdrOf = (invoice: Invoice, now: string) => SupplierCdr;

/** SUNAT's observations kept on the invoice: the CDR file keeps them all. */
const MAX_CDR_NOTES_KEPT = 20;

const cdrNotKept = (reason: string) =>
  `La constancia de recepción (CDR) no se adjuntó al comprobante: ${reason.replace(/\.$/, '')}. El comprobante se recibió igual y SUNAT lo validará.`;

/** What the CDR's pairing check needs of the document it came with. */
export function documentForCdr(document: IncomingDocument): InvoiceForCdr {
  return {
    supplierId: document.supplier.taxId,
    client: document.customerTaxId,
    type: document.type,
    prefixId: document.prefixId,
    numericId: document.numericId,
    certStatus: 'PENDING',
  };
}

/** The invoice's record of a CDR read at its intake: identity mismatches are flagged now, SUNAT's verdict later. */
export function cdrEvidence(parsed: ParsedCdr, fileKey: string): SupplierCdrOf {
  return (invoice, now) => {
    const contradiction = cdrContradiction(parsed, invoice);
    return {
      responseCode: parsed.responseCode,
      description: parsed.description,
      verdict: cdrVerdictOf(parsed.responseCode, parsed.notes.length),
      documentId: parsed.documentId,
      senderTaxId: parsed.senderTaxId,
      responseDate: parsed.responseDate,
      notes: parsed.notes.slice(0, MAX_CDR_NOTES_KEPT).map((note) => ({ code: note.code, message: note.message })),
      fileKey,
      receivedAt: now,
      contradiction: contradiction ? { reasons: [...contradiction.reasons], flaggedAt: now } : null,
    };
  };
}

/**
 * SUNAT's CDR as the portal reads it, or why it is not kept. A CDR never blocks its document: one the portal
 * cannot read or trust (an OSE's, a malformed one, another document's) is left out and the sender is told why;
 * one naming another acquirer is kept and flagged to staff (cdrContradiction).
 */
export function readCdr(
  deps: Pick<IntakeDeps, 'parseCdr'>,
  file: ReceivedFile | undefined,
  document: IncomingDocument,
): { parsed: ParsedCdr | null; warning: string | null } {
  if (!file) return { parsed: null, warning: null };
  try {
    const parsed = deps.parseCdr(file.bytes);
    // The CDR of another document (series and number, type, issuer) is a mix-up: told, not kept.
    assertCdrOfDocument(parsed, documentForCdr(document));
    return { parsed, warning: null };
  } catch (error) {
    if (!(error instanceof PortalError) || error.statusCode >= 500) throw error;
    return { parsed: null, warning: cdrNotKept(error.message) };
  }
}

/** A CDR read and trusted is stored; one the upload checks refuse is left out like any CDR not kept. */
export async function storeCdr(
  deps: Pick<IntakeDeps, 'storeReceived'>,
  caller: Caller,
  files: IncomingFiles,
): Promise<string | { warning: string }> {
  try {
    return await deps.storeReceived(caller, files.sourceKey, 'cdr', files.cdr!);
  } catch (error) {
    if (!(error instanceof PortalError) || error.statusCode >= 500) throw error;
    return { warning: cdrNotKept(error.message) };
  }
}
