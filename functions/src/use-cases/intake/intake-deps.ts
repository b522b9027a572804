import type {
  Client,
  Currency,
  DetractionStatement,
  Installment,
  Invoice,
  InvoiceBreakdown,
  InvoiceType,
  PaymentMethod,
} from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import type { IntakeStore } from '../../repositories/intake-store.js';
import type { NoteLinks } from '../../repositories/note-links.js';
import type { Outgoing } from '../../repositories/outgoing.js';
import type { SupplierProfileRepository } from '../../repositories/supplier-profiles.js';
import type { ParsedCdr } from '../../ubl/cdr.js';
import type { NoteDocument } from '../note-intake.js';

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

/** A document that arrived as files (a zip's entries, an e-mail's attachments). */
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
   * same key (uploads/store-received.ts). It first runs verifyUpload's checks on the bytes in hand (tenant, type,
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
  /** The links between notes and their originals (a note adjusts its original). */
  readonly noteLinks: Pick<NoteLinks, 'notesOf' | 'anotherSupplierHolds' | 'writes'>;
  /** Sends the messages the intake committed with the invoice (SUNAT validation, notification). */
  readonly outgoing: Pick<Outgoing, 'deliver'>;
  readonly clock: () => Date;
}
