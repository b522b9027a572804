import { PortalError } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { sameUploadId } from '../uploads/upload-kinds.js';
import type { FileIntakeOutcome, IncomingDocument, IncomingFiles, IntakeDeps } from './intake-deps.js';
import { invoiceIdOf, registerInvoice, type IntakeEvidence } from './register-invoice.js';
import { cdrEvidence, readCdr, storeCdr } from './supplier-cdr.js';

/**
 * A document that arrived as files, a zip's or an e-mail's: the files are stored as the caller's uploads under keys
 * derived from `sourceKey`, then every check of 'Cargar XML' runs on them. A refusal is an outcome (its files
 * deleted), so the other documents of the zip or e-mail go on; anything else is thrown, and the caller's message is
 * retried. A retry finds the invoice its first attempt stored: ACCEPTED again.
 */
export async function registerFromFiles(
  deps: IntakeDeps,
  caller: Caller,
  files: IncomingFiles,
): Promise<FileIntakeOutcome> {
  const stored: string[] = [];
  let xmlKey: string | null = null;
  let document: IncomingDocument | undefined;
  const progress = { writing: false };
  try {
    // Both files checked by their bytes in hand and stored at once (not read back from the bucket).
    const [xmlStored, pdfStored] = await Promise.allSettled([
      deps.storeReceived(caller, files.sourceKey, 'xml', files.xml),
      files.pdf ? deps.storeReceived(caller, files.sourceKey, 'pdf', files.pdf) : Promise.resolve(null),
    ]);
    for (const outcome of [xmlStored, pdfStored])
      if (outcome.status === 'fulfilled' && outcome.value) stored.push(outcome.value);
    if (xmlStored.status === 'rejected') throw xmlStored.reason;
    if (pdfStored.status === 'rejected') throw pdfStored.reason;
    xmlKey = xmlStored.value;
    const pdfKey = pdfStored.value;
    document = await deps.parseDocument(files.xml.bytes);
    const cdr = readCdr(deps, files.cdr, document);
    let evidence: IntakeEvidence = {};
    let cdrWarning = cdr.warning;
    if (cdr.parsed && files.cdr) {
      const cdrKey = await storeCdr(deps, caller, files);
      if (typeof cdrKey === 'string') {
        stored.push(cdrKey);
        evidence = { cdr: cdrEvidence(cdr.parsed, cdrKey) };
      } else cdrWarning = cdrKey.warning;
    }
    const invoice = await registerInvoice(deps, caller, document, { xmlUrl: xmlKey, pdfUrl: pdfKey }, progress, {
      ...evidence,
      channel: files.channel,
    });
    return { outcome: 'ACCEPTED', invoice, cdrWarning };
  } catch (error) {
    if (!(error instanceof PortalError) || error.statusCode >= 500 || progress.writing) throw error;
    if (error.code === 'ERROR_INVOICE_ALREADY_EXISTS' && document) {
      const { id } = invoiceIdOf(document);
      const existing = await deps.store.existing(document.supplier.taxId, document.type, id);
      // The invoice this same document's first attempt stored (a retried message): not a duplicate.
      if (existing && sameUploadId(existing.xmlUrl, xmlKey)) {
        return { outcome: 'ACCEPTED', invoice: existing, cdrWarning: null };
      }
      await Promise.all(stored.map((key) => deps.discardUpload(key, error.message, error.code)));
      return {
        outcome: 'ALREADY_EXISTS',
        invoiceId: id,
        code: 'ERROR_INVOICE_ALREADY_EXISTS',
        message: error.message,
      };
    }
    await Promise.all(stored.map((key) => deps.discardUpload(key, error.message, error.code)));
    return { outcome: 'REFUSED', code: error.code, message: error.message };
  }
}

/**
 * The intake's ports for one batch of documents (a zip, an e-mail): the supplier directory is read once for the
 * batch rather than once per document. What a batch reads of it (the business name a RUC is known by, its IGV
 * retention exemption) is what it was when the batch started, as for a document being registered.
 */
export function batchIntakeDeps(deps: IntakeDeps): IntakeDeps {
  return { ...deps, profiles: profilesReadOnce(deps.profiles) };
}

/** The directory's answers kept for the life of the object (one batch); a failed read is tried again next time. */
function profilesReadOnce(profiles: IntakeDeps['profiles']): IntakeDeps['profiles'] {
  const answers = new Map<string, ReturnType<IntakeDeps['profiles']['getMany']>>();
  return {
    getMany(rucs) {
      const key = [...new Set(rucs)].sort().join(',');
      let answer = answers.get(key);
      if (!answer) {
        answer = profiles.getMany(rucs);
        answers.set(key, answer);
        answer.catch(() => answers.delete(key));
      }
      return answer;
    },
  };
}
