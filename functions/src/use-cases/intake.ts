import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  INVOICE_STATUS_LABELS,
  ISSUE_DATE_FLOOR,
  MAX_AMOUNT,
  MAX_AMOUNT_TEXT,
  isValidRuc,
  issueDateProblem,
  peruvianDate,
  todayInLima,
  notificationAbout,
  computePayment,
  detractionAmountCents,
  DETRACTION_CODES,
  formatMoney,
  fromCents,
  toCents,
  type DetractionStatement,
  type Installment,
  type PaymentMethod,
  type Client,
  type Currency,
  type Invoice,
  type InvoiceBreakdown,
  type InvoiceType,
  type NotificationMessage,
  type RouteBody,
  type Routes,
  type SunatValidationMessage,
  type SupplierCdr,
  type InvoiceForCdr,
  PortalError,
  cdrContradiction,
  cdrVerdictOf,
} from '@portal/shared';
import { assertCdrOfDocument, type ParsedCdr } from '../ubl/cdr.js';
import { sameUploadId } from './uploads.js';
import { callerStamp } from './audit-stamp.js';
import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { IntakeRaceError } from '../repositories/intake-store.js';
import type { NoteLinks } from '../repositories/note-links.js';
import { checkNoteDocument, linkOriginal, linkNote, noteOfForm, type NoteDocument } from './note-intake.js';
import { outgoingItem, outgoingMessage, type Outgoing, type OutgoingMessage } from '../repositories/outgoing.js';
import { uploadUseItems } from '../repositories/upload-uses.js';
import { acquirerConformityAtIntake } from './acquirer-conformity.js';
import type { Caller } from '../http/caller.js';
import type { IntakeStore } from '../repositories/intake-store.js';
import type { SupplierProfileRepository } from '../repositories/supplier-profiles.js';

/** What an electronic document says, whether read from its XML or typed in the form with its PDF. */
export interface IncomingDocument {
  readonly type: InvoiceType;
  readonly prefixId: string;
  readonly numericId: string;
  readonly issueDate: string;
  readonly currency: Currency;
  readonly supplier: { readonly taxId: string; readonly name: string };
  readonly customerTaxId: string;
  readonly taxAmount: number;
  readonly amount: number;
  readonly purchaseOrders: readonly string[];
  readonly notes: string | null;
  /** What the XML says beyond the total (taxes by scheme, discounts, anticipos, transferencia gratuita); none from the form. */
  readonly breakdown?: InvoiceBreakdown | null;
  /** A note's original (catálogo 01 code of its type, series, number) and SUNAT reason; absent for the others. */
  readonly billingReference?: NoteDocument['billingReference'];
  readonly noteReason?: NoteDocument['noteReason'];
  /** Forma de pago and cuotas (docs/ap-payment.md); absent or null: none stated (read as Contado). */
  readonly paymentTerms?: {
    readonly method: PaymentMethod;
    readonly installments: readonly Installment[];
    readonly declaredPendingAmount: number | null;
  } | null;
  /** Every due date the document states. */
  readonly dueDates?: readonly string[];
  /** The detracción (SPOT) the document states. */
  readonly detraction?: DetractionStatement | null;
}

export type UploadPurpose = 'INVOICE_XML' | 'INVOICE_PDF' | 'INVOICE_CDR';

export interface ReceivedFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/** A document that arrived as files (a zip's entries, an e-mail's attachments), issue 24. */
export interface IncomingFiles {
  /**
   * Stable across retries of the same document from the same source (`zip/${batchId}/${base}`,
   * `mail/${messageId}/${base}`): its files are stored under keys derived from it, so a retry after a crash finds
   * its own invoice (ACCEPTED again) instead of reporting a duplicate.
   */
  readonly sourceKey: string;
  readonly channel: 'ZIP' | 'EMAIL';
  readonly xml: ReceivedFile;
  readonly pdf?: ReceivedFile;
  /** SUNAT's CDR (ApplicationResponse XML; a CDR zip is unpacked by zip-documents.ts). */
  readonly cdr?: ReceivedFile;
}

/** What became of one document: a caller reports it per document, the others of its zip or e-mail go on. */
export type FileIntakeOutcome =
  | { readonly outcome: 'ACCEPTED'; readonly invoice: Invoice; readonly cdrWarning: string | null }
  | {
      readonly outcome: 'ALREADY_EXISTS';
      readonly invoiceId: string;
      readonly code: 'ERROR_INVOICE_ALREADY_EXISTS';
      readonly message: string;
    }
  | { readonly outcome: 'REFUSED'; readonly code: string; readonly message: string };

export interface IntakeDeps {
  /** Checks an uploaded object (tenant, size, type by its bytes); XML comes back with its bytes. */
  readonly verifyUpload: (
    key: string,
    purpose: UploadPurpose,
    caller: Caller,
  ) => Promise<{ key: string; bytes?: Uint8Array }>;
  /**
   * Deletes an upload the intake verified and then refused (unless an invoice uses it), as every
   * refused upload is: the bucket keeps only files that invoices name.
   */
  readonly discardUpload: (key: string, reason: string, code: string) => Promise<void>;
  /**
   * Stores a file that arrived as part of a document (a zip's entry, an e-mail's attachment) as an upload of the
   * caller's tenant, under a key derived from the source and the part: the same document stored again lands on the
   * same key (uploads.ts storeReceived). It first runs verifyUpload's checks on the bytes in hand (tenant, type,
   * size, content): a file they refuse is not stored (a BadRequestError, as verifyUpload's).
   */
  readonly storeReceived: (
    caller: Caller,
    sourceKey: string,
    part: 'xml' | 'pdf' | 'cdr',
    file: ReceivedFile,
  ) => Promise<string>;
  /** Reads SUNAT's CDR (functions/src/ubl/cdr.ts); refuses, with a PortalError, one it cannot read or trust. */
  readonly parseCdr: (bytes: Uint8Array) => ParsedCdr;
  /** Reads a SUNAT electronic document (hardened UBL parser). */
  readonly parseDocument: (bytes: Uint8Array) => Promise<IncomingDocument>;
  /** The series-number format rule. */
  readonly checkInvoiceCode: (type: InvoiceType, prefixId: string, numericId: string) => boolean;
  readonly clients: { get(taxId: string): Promise<Client | null> };
  /** The supplier directory: the business name a RUC is known by. */
  readonly profiles: Pick<SupplierProfileRepository, 'getMany'>;
  readonly store: IntakeStore;
  /** The links between notes and their originals (issue 21). */
  readonly noteLinks: Pick<NoteLinks, 'notesOf' | 'anotherSupplierHolds' | 'writes'>;
  /** Sends the messages the intake committed with the invoice (SUNAT validation, notification). */
  readonly outgoing: Pick<Outgoing, 'deliver'>;
  readonly clock: () => Date;
}

/** The CDR's evidence for the invoice being stored, given the invoice and the time of its intake. */
type SupplierCdrOf = (invoice: Invoice, now: string) => SupplierCdr;

/** SUNAT's observations kept on the invoice: the CDR file keeps them all. */
const MAX_CDR_NOTES_KEPT = 20;

const cdrNotKept = (reason: string) =>
  `La constancia de recepción (CDR) no se adjuntó al comprobante: ${reason.replace(/\.$/, '')}. El comprobante se recibió igual y SUNAT lo validará.`;

/** What the CDR's pairing check needs of the document it came with. */
function documentForCdr(document: IncomingDocument): InvoiceForCdr {
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
function cdrEvidence(parsed: ParsedCdr, fileKey: string): SupplierCdrOf {
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

/** Reads and writes of one intake when the notes or original it links keep moving under it. */
const MAX_LINK_ATTEMPTS = 5;

/**
 * Document intake (POST /invoices and POST /invoices/without-xml). Steps:
 * 1. the uploaded file is what it claims to be (and the XML is read);
 * 2. the supplier's RUC carries its check digit and is the caller's (an admin may submit for anyone),
 *    the customer is one of the group's companies, the series-number has SUNAT's format; a note names its
 *    original and a reason of SUNAT's catálogo (note-intake.ts);
 * 3. the same supplier, type, series and correlative (compared as integers) is not there already,
 *    unless it was rejected with retry allowed, which the new one replaces;
 * 4. one transaction stores it PENDING with certStatus PENDING — a note linked to its original, an original
 *    to the notes that came before it — then SUNAT validation is queued and the people concerned are told.
 */
export function makeIntake(deps: IntakeDeps) {
  async function register(
    caller: Caller,
    document: IncomingDocument,
    files: { xmlUrl: string | null; pdfUrl: string | null },
    progress: { writing: boolean },
    evidence: { readonly cdr?: SupplierCdrOf; readonly channel?: IncomingFiles['channel'] } = {},
  ) {
    if (!isValidRuc(document.supplier.taxId))
      throw new BadRequestError('ERROR_INVALID_RUC', { ruc: document.supplier.taxId });
    if (caller.level !== 'ADMIN' && !caller.taxIds.includes(document.supplier.taxId)) {
      throw new ForbiddenError('ERROR_INVOICE_SUPPLIER_NOT_CALLER', { ruc: document.supplier.taxId });
    }
    const client = await deps.clients.get(document.customerTaxId);
    if (!client) throw new BadRequestError('ERROR_CLIENT_NOT_FOUND', { companyId: document.customerTaxId });
    if (
      !/^\d{1,8}$/.test(document.numericId) ||
      !deps.checkInvoiceCode(document.type, document.prefixId, document.numericId)
    ) {
      throw new BadRequestError('ERROR_INVOICE_ID_WITH_INVALID_FORMAT', {
        prefixId: document.prefixId,
        numericId: document.numericId,
      });
    }
    // 0.00 only when nothing is to be paid: a transferencia gratuita, or anticipos that cover the whole.
    const nothingToPay = Boolean(document.breakdown?.freeOfCharge) || (document.breakdown?.prepaidAmount ?? 0) > 0;
    const amountAccepted = document.amount > 0 || (document.amount === 0 && nothingToPay);
    if (!amountAccepted || document.taxAmount < 0 || document.taxAmount > document.amount) {
      throw new BadRequestError('ERROR_INVALID_PARAMETER', {
        parameter: 'amount',
        reason: 'el monto debe ser positivo y el IGV no puede superarlo',
      });
    }
    for (const [field, amount] of [
      ['importe total', document.amount],
      ['monto del IGV', document.taxAmount],
    ] as const) {
      if (amount > MAX_AMOUNT) {
        throw new BadRequestError('ERROR_INVOICE_AMOUNT_OUT_OF_RANGE', { field, limit: MAX_AMOUNT_TEXT });
      }
    }
    const dateProblem = issueDateProblem(document.issueDate, deps.clock());
    if (dateProblem === 'FUTURE') {
      throw new BadRequestError('ERROR_INVOICE_ISSUE_DATE_IN_FUTURE', {
        date: peruvianDate(document.issueDate),
        today: peruvianDate(todayInLima(deps.clock())),
      });
    }
    if (dateProblem === 'TOO_OLD') {
      throw new BadRequestError('ERROR_INVOICE_ISSUE_DATE_TOO_OLD', {
        date: peruvianDate(document.issueDate),
        floor: peruvianDate(ISSUE_DATE_FLOOR),
      });
    }

    // A note names its original and its SUNAT reason (issue 21).
    const note = checkNoteDocument(document);

    // Correlatives compare as integers: F001-00000123 and F001-123 are the same document.
    const numericId = String(Number(document.numericId));
    const id = `${document.prefixId}-${numericId}`;
    /** One read of what is stored under its key, and the write that stores it or replaces a rejection. */
    const storeOnce = async (): Promise<Invoice> => {
      const existing = await deps.store.existing(document.supplier.taxId, document.type, id);
      const retryAllowed = existing?.status === 'REJECTED' && existing.disapprovedWithoutRejection;
      if (existing && !retryAllowed) throw new ConflictError('ERROR_INVOICE_ALREADY_EXISTS', { invoiceId: id });

      const now = deps.clock().toISOString();
      const by = caller.email || caller.sub;
      // What the group expects to pay and when: the company's payment runs and retention, the supplier's exemption.
      const supplierProfile = (await deps.profiles.getMany([document.supplier.taxId])).get(document.supplier.taxId);
      const payment = computePayment({
        type: document.type,
        currency: document.currency,
        amount: document.amount,
        taxAmount: document.taxAmount,
        method: document.paymentTerms?.method ?? null,
        installments: document.paymentTerms?.installments ?? [],
        declaredPendingAmount: document.paymentTerms?.declaredPendingAmount ?? null,
        dueDates: document.dueDates ?? [],
        detraction: document.detraction ?? null,
        receivedAt: now,
        company: client,
        supplierExemption: supplierProfile?.igvRetentionExemption ?? null,
      });
      const invoice: Invoice = {
        id,
        prefixId: document.prefixId,
        numericId,
        type: document.type,
        status: 'PENDING',
        statusMessage: null,
        certStatus: 'PENDING',
        approved: false,
        supplierId: document.supplier.taxId,
        supplierName: document.supplier.name,
        client: client.taxId,
        clientName: client.name,
        responsible: null,
        officeId: null,
        locationId: null,
        operationType: null,
        currency: document.currency,
        amount: document.amount,
        taxAmount: document.taxAmount,
        serviceSheets: [],
        materialDocs: [],
        purchaseOrders: [...document.purchaseOrders],
        attachments: [],
        issuedAt: document.issueDate,
        receivedAt: now,
        scheduledAt: null,
        paidAt: null,
        xmlUrl: files.xmlUrl,
        pdfUrl: files.pdfUrl,
        disapprovedWithoutRejection: false,
        notes: document.notes,
        breakdown: document.breakdown ?? null,
        // A resubmission continues the history of the rejection it replaces: nothing anyone did is lost.
        statusHistory: [
          ...(retryAllowed && existing ? existing.statusHistory : []),
          {
            status: 'PENDING',
            title: INVOICE_STATUS_LABELS.PENDING,
            additionalMessage: retryAllowed ? 'Comprobante enviado nuevamente tras el rechazo' : 'Comprobante recibido',
            date: now,
            by,
          },
        ],
        payment,
      };
      // The CDR the supplier sent: evidence beside SUNAT's check, flagged to staff when it names another acquirer.
      const cdrNotices: OutgoingMessage[] = [];
      if (evidence.cdr) {
        invoice.supplierCdr = evidence.cdr(invoice, now);
        if (invoice.supplierCdr.contradiction) {
          const detail = invoice.supplierCdr.contradiction.reasons.map((reason) => reason.message).join(' ');
          cdrNotices.push(
            outgoingMessage(
              'notifications',
              notificationAbout('CDR_CONTRADICTION', invoice, detail, new Date(now)),
              deps.clock(),
            ),
          );
        }
      }
      // The Ley 29623 conformity clock, when the document runs one; its record is written with the invoice.
      const conformity = acquirerConformityAtIntake(invoice, retryAllowed ? existing : null, deps.clock());
      invoice.acquirerConformity = conformity.conformity;
      const sunat: SunatValidationMessage = {
        supplierId: invoice.supplierId,
        invoiceType: invoice.type,
        invoiceId: invoice.id,
        ...(evidence.channel ? { channel: evidence.channel } : {}),
      };
      const received: NotificationMessage = {
        ...notificationAbout('INVOICE_RECEIVED', invoice, null, new Date(now)),
        ...(evidence.channel ? { channel: evidence.channel } : {}),
      };
      // Committed with the invoice, so SUNAT validation is never lost; sent right after, or by the relay.
      const messages = [
        outgoingMessage('sunatValidation', sunat, deps.clock()),
        outgoingMessage('notifications', received, deps.clock()),
        ...cdrNotices,
      ];
      // The files it names are recorded with it: a later refusal of the same key leaves them alone.
      const uses = uploadUseItems(
        [files.xmlUrl, files.pdfUrl, invoice.supplierCdr?.fileKey ?? null],
        invoice,
        deps.clock(),
      );
      const replacing = retryAllowed ? existing : null;
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
    };

    // The rejection a resubmission replaces may move between its read and the write (SUNAT's answer on the first
    // submission landing, a message): it is read again, and the resubmission goes on while it is still a rejection.
    for (let round = 1; ; round++) {
      try {
        return await storeOnce();
      } catch (error) {
        if (!(error instanceof IntakeRaceError && error.invoiceMoved)) throw error;
        if (round >= MAX_LINK_ATTEMPTS) throw new ConflictError('ERROR_INVOICE_CHANGED_CONCURRENTLY');
        progress.writing = false;
      }
    }
  }

  /**
   * Runs the checks after the upload's own: a refusal (any 4xx before the write) deletes the upload. A
   * failure of the write itself keeps it: the same submission may be retried, or a concurrent one
   * holding the same key may be the one being stored.
   */
  async function refusingUpload(keys: readonly string[], run: (progress: { writing: boolean }) => Promise<Invoice>) {
    const progress = { writing: false };
    try {
      return await run(progress);
    } catch (error) {
      const status = (error as { statusCode?: unknown }).statusCode;
      if (!progress.writing && typeof status === 'number' && status >= 400 && status < 500) {
        const reason = (error as Error).message;
        const code = String((error as { code?: unknown }).code);
        await Promise.all(keys.map((key) => deps.discardUpload(key, reason, code)));
      }
      throw error;
    }
  }

  /**
   * SUNAT's CDR as the portal reads it, or why it is not kept. A CDR never blocks its document: one the portal
   * cannot read or trust (an OSE's, a malformed one, another document's) is left out and the sender is told why;
   * one naming another acquirer is kept and flagged to staff (cdrContradiction).
   */
  function readCdr(
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
  async function storeCdr(caller: Caller, files: IncomingFiles): Promise<string | { warning: string }> {
    try {
      return await deps.storeReceived(caller, files.sourceKey, 'cdr', files.cdr!);
    } catch (error) {
      if (!(error instanceof PortalError) || error.statusCode >= 500) throw error;
      return { warning: cdrNotKept(error.message) };
    }
  }

  return {
    /**
     * The intake of one batch of documents (a zip, an e-mail): the supplier directory is read once for the batch
     * rather than once per document (issue 25). What a batch reads of it (the business name a RUC is known by, its
     * IGV retention exemption) is what it was when the batch started, as for a document being registered.
     */
    forBatch(): { fromFiles: (caller: Caller, files: IncomingFiles) => Promise<FileIntakeOutcome> } {
      return makeIntake({ ...deps, profiles: profilesReadOnce(deps.profiles) });
    },

    /**
     * A document that arrived as files, a zip's or an e-mail's (issue 24): the files are stored as the caller's
     * uploads under keys derived from `sourceKey`, then every check of 'Cargar XML' runs on them. A refusal is an
     * outcome (its files deleted), so the other documents of the zip or e-mail go on; anything else is thrown, and
     * the caller's message is retried. A retry finds the invoice its first attempt stored: ACCEPTED again.
     */
    async fromFiles(caller: Caller, files: IncomingFiles): Promise<FileIntakeOutcome> {
      const stored: string[] = [];
      let xmlKey: string | null = null;
      let document: IncomingDocument | undefined;
      const progress = { writing: false };
      try {
        // Both files checked by their bytes in hand and stored at once (issue 25: not read back from the bucket).
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
        const cdr = readCdr(files.cdr, document);
        let evidence: { cdr?: SupplierCdrOf } = {};
        let cdrWarning = cdr.warning;
        if (cdr.parsed && files.cdr) {
          const cdrKey = await storeCdr(caller, files);
          if (typeof cdrKey === 'string') {
            stored.push(cdrKey);
            evidence = { cdr: cdrEvidence(cdr.parsed, cdrKey) };
          } else cdrWarning = cdrKey.warning;
        }
        const invoice = await register(caller, document, { xmlUrl: xmlKey, pdfUrl: pdfKey }, progress, {
          ...evidence,
          channel: files.channel,
        });
        return { outcome: 'ACCEPTED', invoice, cdrWarning };
      } catch (error) {
        if (!(error instanceof PortalError) || error.statusCode >= 500 || progress.writing) throw error;
        if (error.code === 'ERROR_INVOICE_ALREADY_EXISTS' && document) {
          const numericId = String(Number(document.numericId));
          const existing = await deps.store.existing(
            document.supplier.taxId,
            document.type,
            `${document.prefixId}-${numericId}`,
          );
          // The invoice this same document's first attempt stored (a retried message): not a duplicate.
          if (existing && sameUploadId(existing.xmlUrl, xmlKey)) {
            return { outcome: 'ACCEPTED', invoice: existing, cdrWarning: null };
          }
          await Promise.all(stored.map((key) => deps.discardUpload(key, error.message, error.code)));
          return {
            outcome: 'ALREADY_EXISTS',
            invoiceId: `${document.prefixId}-${numericId}`,
            code: 'ERROR_INVOICE_ALREADY_EXISTS',
            message: error.message,
          };
        }
        await Promise.all(stored.map((key) => deps.discardUpload(key, error.message, error.code)));
        return { outcome: 'REFUSED', code: error.code, message: error.message };
      }
    },

    /**
     * POST /invoices: the uploaded XML, and its CDR when the supplier adds it. Here the sender is at the screen, so
     * a CDR the portal cannot read or that names another document refuses the submission (both uploads deleted),
     * to be sent again without it or with the right one.
     */
    async fromXml(caller: Caller, body: RouteBody<Routes['createInvoiceFromXml']>): Promise<Invoice> {
      const upload = await deps.verifyUpload(body.url, 'INVOICE_XML', caller);
      const invoice = await refusingUpload([upload.key, ...(body.cdrUrl ? [body.cdrUrl] : [])], async (progress) => {
        const cdrUpload = body.cdrUrl ? await deps.verifyUpload(body.cdrUrl, 'INVOICE_CDR', caller) : null;
        const document = await deps.parseDocument(upload.bytes ?? new Uint8Array());
        let evidence: { cdr?: SupplierCdrOf } = {};
        if (cdrUpload) {
          const cdr = deps.parseCdr(cdrUpload.bytes ?? new Uint8Array());
          assertCdrOfDocument(cdr, documentForCdr(document));
          evidence = { cdr: cdrEvidence(cdr, cdrUpload.key) };
        }
        return register(caller, document, { xmlUrl: upload.key, pdfUrl: null }, progress, evidence);
      });
      // A CDR that names another acquirer is flagged to staff only: the answer leaves without it (schemas/visibility.ts).
      return invoice;
    },

    async withoutXml(caller: Caller, body: RouteBody<Routes['createInvoiceWithoutXml']>): Promise<Invoice> {
      const upload = await deps.verifyUpload(body.pdfUrl, 'INVOICE_PDF', caller);
      const invoice = await refusingUpload([upload.key], async (progress) => {
        // The business name is the one the directory knows the RUC by; a typed one only names a RUC it does not know.
        const known = await deps.profiles.getMany([body.supplierTaxId]);
        const supplierName = known.get(body.supplierTaxId)?.name ?? body.supplierName;
        if (!supplierName) throw new BadRequestError('ERROR_MISSING_PARAMETER', { parameter: 'supplierName' });
        return register(
          caller,
          {
            type: body.type,
            prefixId: body.prefixId,
            numericId: body.numericId,
            issueDate: body.issueDate,
            currency: body.currency,
            supplier: { taxId: body.supplierTaxId, name: supplierName },
            customerTaxId: body.clientTaxId,
            taxAmount: body.taxAmount,
            amount: body.amount,
            purchaseOrders: [],
            notes: body.notes ?? null,
            ...noteOfForm(body),
            ...typedPayment(body),
          },
          { xmlUrl: null, pdfUrl: upload.key },
          progress,
        );
      });
      return invoice;
    },
  };
}

export type Intake = ReturnType<typeof makeIntake>;

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

type WithoutXmlBody = RouteBody<Routes['createInvoiceWithoutXml']>;

/**
 * The forma de pago and detracción typed in 'Nuevo comprobante', checked as SUNAT checks a document's
 * (docs/ap-payment.md): Crédito has cuotas, each due after the issue date, Contado none; a detracción names a
 * catálogo 54 code on a factura or nota de débito, and its deposit is the percentage of the total (a document in
 * dollars states the deposit in soles). Cuotas that do not add up to the net to pay are flagged, not refused.
 */
export function typedPayment(body: WithoutXmlBody): Pick<IncomingDocument, 'paymentTerms' | 'dueDates' | 'detraction'> {
  const terms = body.paymentTerms ?? { method: 'CONTADO' as const, installments: [] };
  const refuse = (reason: string) => new BadRequestError('ERROR_PAYMENT_TERMS_INVALID', { reason });
  if (terms.method === 'CREDITO' && terms.installments.length === 0) {
    throw refuse('una venta al crédito debe indicar al menos una cuota');
  }
  if (terms.method === 'CONTADO' && terms.installments.length > 0) {
    throw refuse('una venta al contado no tiene cuotas');
  }
  terms.installments.forEach((installment, i) => {
    if (installment.dueDate <= body.issueDate) {
      throw refuse(
        `la cuota ${i + 1} vence el ${peruvianDate(installment.dueDate)}, y debe vencer después de la fecha de emisión (${peruvianDate(body.issueDate)})`,
      );
    }
  });

  let detraction: DetractionStatement | null = null;
  if (body.detraction) {
    const typed = body.detraction;
    const refuseDetraction = (reason: string) => new BadRequestError('ERROR_DETRACTION_INVALID', { reason });
    if (body.type !== 'FACTURA' && body.type !== 'NOTA_DE_DEBITO') {
      throw refuseDetraction('solo una factura o una nota de débito lleva detracción');
    }
    if (!(typed.code in DETRACTION_CODES)) {
      throw refuseDetraction(`el código ${typed.code} no figura en el catálogo 54 de SUNAT`);
    }
    const computed = detractionAmountCents(body.amount, typed.percent);
    let amount = fromCents(computed);
    if (body.currency === 'PEN') {
      if (typed.amountPen !== undefined && toCents(typed.amountPen) !== computed) {
        throw refuseDetraction(
          `el depósito es el ${typed.percent} % del importe total, ${formatMoney(amount)}, no ${formatMoney(typed.amountPen)}`,
        );
      }
    } else {
      if (typed.amountPen === undefined) {
        throw refuseDetraction('en un comprobante en dólares indique el monto del depósito en soles');
      }
      amount = typed.amountPen;
    }
    detraction = {
      operationType: '1001',
      code: typed.code,
      percent: typed.percent,
      amount,
      currency: 'PEN',
      account: typed.account ?? null,
    };
  }
  return {
    paymentTerms: {
      method: terms.method,
      installments: terms.installments.map((installment, i) => ({ number: i + 1, ...installment })),
      declaredPendingAmount: null,
    },
    dueDates: [],
    detraction,
  };
}
