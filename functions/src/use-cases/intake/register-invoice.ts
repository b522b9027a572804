import type { TransactItem as TransactWriteItem } from '../../repositories/transaction.js';
import {
  ConflictError,
  notificationAbout,
  type Client,
  type Invoice,
  type NotificationMessage,
  type SunatValidationMessage,
} from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { IntakeRaceError } from '../../repositories/intake-store.js';
import { outgoingItem, outgoingMessage, type OutgoingMessage } from '../../repositories/outgoing.js';
import { uploadUseItems } from '../../repositories/upload-uses.js';
import { acquirerConformityAtIntake } from '../acquirer-conformity.js';
import { callerStamp } from '../audit-stamp.js';
import { cdrContradictionNotice } from '../cdr-notice.js';
import { checkNoteDocument, linkNote, linkOriginal, type CheckedNote } from '../note-intake.js';
import { checkIncomingDocument } from './check-document.js';
import type { IncomingDocument, IncomingFiles, IntakeDeps } from './intake-deps.js';
import { newInvoiceOf, paymentOf } from './new-invoice.js';
import type { SupplierCdrOf } from './supplier-cdr.js';

/** Reads and writes of one intake when the notes or original it links keep moving under it. */
const MAX_LINK_ATTEMPTS = 5;

/** Whether the intake has begun its write: a failure from then on keeps the uploads (refusing-upload.ts). */
export interface IntakeProgress {
  writing: boolean;
}

/** What came with the document besides its files: the CDR's evidence, the channel it arrived by. */
export interface IntakeEvidence {
  readonly cdr?: SupplierCdrOf;
  readonly channel?: IncomingFiles['channel'];
}

/** The files an invoice names: its XML (none for the form without XML) and its PDF. */
export interface InvoiceFiles {
  readonly xmlUrl: string | null;
  readonly pdfUrl: string | null;
}

/** Correlatives compare as integers: F001-00000123 and F001-123 are the same document. */
export function invoiceIdOf(document: Pick<IncomingDocument, 'prefixId' | 'numericId'>) {
  const numericId = String(Number(document.numericId));
  return { numericId, id: `${document.prefixId}-${numericId}` };
}

/**
 * Document intake, the step every channel shares (POST /invoices, POST /invoices/without-xml, a zip, an e-mail):
 * 2. the document's checks (check-document.ts); a note names its original and a reason of SUNAT's catálogo
 *    (note-intake.ts);
 * 3. the same supplier, type, series and correlative (compared as integers) is not there already,
 *    unless it was rejected with retry allowed, which the new one replaces;
 * 4. one transaction stores it PENDING with certStatus PENDING — a note linked to its original, an original
 *    to the notes that came before it — then SUNAT validation is queued and the people concerned are told.
 */
export async function registerInvoice(
  deps: IntakeDeps,
  caller: Caller,
  document: IncomingDocument,
  files: InvoiceFiles,
  progress: IntakeProgress,
  evidence: IntakeEvidence = {},
): Promise<Invoice> {
  const client = await checkIncomingDocument(deps, caller, document);
  const note = checkNoteDocument(document);
  // The rejection a resubmission replaces may move between its read and the write (SUNAT's answer on the first
  // submission landing, a message): it is read again, and the resubmission goes on while it is still a rejection.
  for (let round = 1; ; round++) {
    try {
      return await storeOnce(deps, { caller, document, files, progress, evidence, client, note });
    } catch (error) {
      if (!(error instanceof IntakeRaceError && error.invoiceMoved)) throw error;
      if (round >= MAX_LINK_ATTEMPTS) throw new ConflictError('ERROR_INVOICE_CHANGED_CONCURRENTLY');
      progress.writing = false;
    }
  }
}

interface Submission {
  readonly caller: Caller;
  readonly document: IncomingDocument;
  readonly files: InvoiceFiles;
  readonly progress: IntakeProgress;
  readonly evidence: IntakeEvidence;
  readonly client: Client;
  readonly note: CheckedNote | null;
}

/** One read of what is stored under its key, and the write that stores it or replaces a rejection. */
async function storeOnce(deps: IntakeDeps, submission: Submission): Promise<Invoice> {
  const { caller, document, files, progress, evidence, client, note } = submission;
  const { numericId, id } = invoiceIdOf(document);
  const existing = await deps.store.existing(document.supplier.taxId, document.type, id);
  const retryAllowed = existing?.status === 'REJECTED' && existing.disapprovedWithoutRejection;
  if (existing && !retryAllowed) throw new ConflictError('ERROR_INVOICE_ALREADY_EXISTS', { invoiceId: id });
  const replacing = retryAllowed ? existing : null;

  const now = deps.clock().toISOString();
  const supplierProfile = (await deps.profiles.getMany([document.supplier.taxId])).get(document.supplier.taxId);
  const payment = paymentOf(document, client, supplierProfile?.igvRetentionExemption ?? null, now);
  const by = caller.email || caller.sub;
  const invoice = newInvoiceOf(document, { id, numericId, client, files, replacing, payment, now, by });
  // The CDR the supplier sent: evidence beside SUNAT's check, flagged to staff when it names another acquirer.
  if (evidence.cdr) invoice.supplierCdr = evidence.cdr(invoice, now);
  // The Ley 29623 conformity clock, when the document runs one; its record is written with the invoice.
  const conformity = acquirerConformityAtIntake(invoice, replacing, deps.clock());
  invoice.acquirerConformity = conformity.conformity;
  const messages = intakeMessagesOf(deps, invoice, evidence, now);
  // The files it names are recorded with it: a later refusal of the same key leaves them alone.
  const uses = uploadUseItems(
    [files.xmlUrl, files.pdfUrl, invoice.supplierCdr?.fileKey ?? null],
    invoice,
    deps.clock(),
  );

  // A note is linked to its original, an original to the notes that came before it, in the same transaction;
  // when one of the items read moves first, everything is read again.
  for (let attempt = 1; ; attempt++) {
    const link: { fields: Partial<Invoice>; writes: readonly TransactWriteItem[] } = note
      ? await linkNote(deps, invoice, note, client, replacing)
      : await linkOriginal(deps, invoice);
    progress.writing = true;
    try {
      const stored: Invoice = { ...invoice, ...link.fields };
      await deps.store.create(
        stored,
        replacing,
        callerStamp(caller, replacing ? 'RESUBMITTED' : 'SUBMITTED'),
        [...messages.map(outgoingItem), ...uses, ...conformity.items],
        link.writes,
        { supplierInDirectory: supplierProfile !== undefined },
      );
      await deps.outgoing.deliver(messages);
      return stored;
    } catch (error) {
      if (!(error instanceof IntakeRaceError) || error.invoiceMoved) throw error;
      if (attempt >= MAX_LINK_ATTEMPTS) throw new ConflictError('ERROR_INVOICE_CHANGED_CONCURRENTLY');
      progress.writing = false;
    }
  }
}

/**
 * What the intake commits with the invoice, so that SUNAT validation is never lost: SUNAT's message, the
 * INVOICE_RECEIVED notice and, for a CDR naming another acquirer, staff's CDR_CONTRADICTION notice. Sent right
 * after the write, or by the relay.
 */
function intakeMessagesOf(
  deps: Pick<IntakeDeps, 'clock'>,
  invoice: Invoice,
  evidence: IntakeEvidence,
  now: string,
): OutgoingMessage[] {
  const contradiction = invoice.supplierCdr?.contradiction;
  const cdrNotices = contradiction
    ? [cdrContradictionNotice(invoice, contradiction.reasons, new Date(now), deps.clock())]
    : [];
  const channel = evidence.channel ? { channel: evidence.channel } : {};
  const sunat: SunatValidationMessage = {
    supplierId: invoice.supplierId,
    invoiceType: invoice.type,
    invoiceId: invoice.id,
    ...channel,
  };
  const received: NotificationMessage = {
    ...notificationAbout('INVOICE_RECEIVED', invoice, null, new Date(now)),
    ...channel,
  };
  return [
    outgoingMessage('sunatValidation', sunat, deps.clock()),
    outgoingMessage('notifications', received, deps.clock()),
    ...cdrNotices,
  ];
}
