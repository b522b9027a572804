import type { Invoice, RouteBody, Routes } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { assertCdrOfDocument } from '../../ubl/cdr.js';
import type { IntakeDeps } from './intake-deps.js';
import { refusingUpload } from './refusing-upload.js';
import { registerInvoice, type IntakeEvidence } from './register-invoice.js';
import { cdrEvidence, documentForCdr } from './supplier-cdr.js';

/**
 * POST /invoices: the uploaded XML (step 1: the upload is what it claims to be, and the XML is read), and its CDR
 * when the supplier adds it. Here the sender is at the screen, so a CDR the portal cannot read or that names another
 * document refuses the submission (both uploads deleted), to be sent again without it or with the right one.
 */
export async function createInvoiceFromXml(
  deps: IntakeDeps,
  caller: Caller,
  body: RouteBody<Routes['createInvoiceFromXml']>,
): Promise<Invoice> {
  const upload = await deps.verifyUpload(body.url, 'INVOICE_XML', caller);
  // A CDR that names another acquirer is flagged to staff only: the answer leaves without it (schemas/visibility.ts).
  return refusingUpload(deps, [upload.key, ...(body.cdrUrl ? [body.cdrUrl] : [])], async (progress) => {
    const cdrUpload = body.cdrUrl ? await deps.verifyUpload(body.cdrUrl, 'INVOICE_CDR', caller) : null;
    const document = await deps.parseDocument(upload.bytes ?? new Uint8Array());
    let evidence: IntakeEvidence = {};
    if (cdrUpload) {
      const cdr = deps.parseCdr(cdrUpload.bytes ?? new Uint8Array());
      assertCdrOfDocument(cdr, documentForCdr(document));
      evidence = { cdr: cdrEvidence(cdr, cdrUpload.key) };
    }
    return registerInvoice(deps, caller, document, { xmlUrl: upload.key, pdfUrl: null }, progress, evidence);
  });
}
