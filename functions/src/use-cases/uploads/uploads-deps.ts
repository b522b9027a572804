import type { Logger } from '@aws-lambda-powertools/logger';
import type { DocumentFiles } from '../../adapters/s3.js';
import type { InvoiceStore } from '../../repositories/invoice-store.js';
import type { UploadUses } from '../../repositories/upload-uses.js';

/** The ports of the documents bucket's use cases: upload tickets, checking what arrived, and download links. */
export interface UploadsDeps {
  readonly files: DocumentFiles;
  readonly invoices: Pick<InvoiceStore, 'get'>;
  /** Whether an invoice names an object: such an object is never deleted by a refusal. */
  readonly uses: UploadUses;
  readonly clock: () => Date;
  readonly newId: () => string;
  readonly log: Pick<Logger, 'info' | 'warn' | 'error'>;
}

export interface VerifiedUpload {
  readonly key: string;
  readonly size: number;
  readonly contentType: string;
  /** The name the user gave the file (object metadata x-amz-meta-filename). */
  readonly fileName: string;
  /** The whole file, for an XML only (bounded by its purpose's limit): the parser reads it next. */
  readonly bytes?: Uint8Array;
}
