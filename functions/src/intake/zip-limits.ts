import type yauzl from 'yauzl';
import { BadRequestError, type ErrorCode, type ErrorItem } from '@portal/shared';
import { UPLOAD_LIMITS } from '../use-cases/uploads/upload-kinds.js';

/* What a zip of documents may hold, how it is refused, and what its reading hands out. */

export const MB = 1024 * 1024;

export interface ZipLimits {
  /** Documents (XML files, each a comprobante) a zip may hold. */
  maxDocuments: number;
  /** Entries of the central directory: an XML, its PDF and its CDR per document. */
  maxEntries: number;
  /** The sum of the entries' declared uncompressed sizes. */
  maxTotalBytes: number;
  /** One XML (a document or a CDR), as the upload of one XML allows. */
  maxXmlBytes: number;
  /** One PDF, as the upload of one PDF allows. */
  maxPdfBytes: number;
  /** One CDR zip (R-<base>.zip): SUNAT's hold one small XML. */
  maxCdrZipBytes: number;
  /** An entry inflating more than this many times its compressed size… */
  maxRatio: number;
  /** …and to more than this is refused as a zip bomb (small files of repeated text compress well and are harmless). */
  ratioFloorBytes: number;
  /** Characters of an entry's name (the browser's file name bound). */
  maxNameLength: number;
}

export const ZIP_LIMITS: Readonly<ZipLimits> = {
  maxDocuments: 500,
  maxEntries: 1500,
  maxTotalBytes: 200 * MB,
  maxXmlBytes: UPLOAD_LIMITS.INVOICE_XML.maxBytes,
  maxPdfBytes: UPLOAD_LIMITS.INVOICE_PDF.maxBytes,
  maxCdrZipBytes: UPLOAD_LIMITS.INVOICE_XML.maxBytes,
  maxRatio: 100,
  ratioFloorBytes: 1 * MB,
  maxNameLength: 200,
};

/** A CDR zip holds one R-*.xml; SUNAT's also carry an empty `dummy/` folder. */
export const CDR_ZIP_MAX_ENTRIES = 5;

/** A zip refused whole: nothing of it is to be stored. */
export class ZipRefusedError extends BadRequestError {}

export const refuse = (code: ErrorCode, parameters: Record<string, unknown> = {}) =>
  new ZipRefusedError(code, parameters);

/** One file of a document, read from the zip. */
export interface ZipPart {
  /** Its name in the zip (for a CDR read from R-<base>.zip, the XML's name inside it). */
  name: string;
  bytes: Buffer;
}

/** A document of the zip: its files, or the reason it cannot be taken (the other documents still are). */
export type ZipDocument =
  | { base: string; ok: true; xml: ZipPart; pdf?: ZipPart; cdr?: ZipPart }
  | { base: string; ok: false; names: string[]; error: ErrorItem; message: string };

export type ZipSource = Buffer | { path: string };

export interface ZipDocuments extends AsyncIterable<ZipDocument> {
  /** Documents the zip holds (those with a problem included), known before any is read. */
  readonly documentCount: number;
  readonly entryCount: number;
  /** The sum of the entries' declared uncompressed sizes. */
  readonly declaredBytes: number;
  /** Releases the zip (its file descriptor for a path); iterating to the end or breaking out does it too. */
  close(): void;
}

export type Kind = 'xml' | 'pdf' | 'cdrXml' | 'cdrZip';

export interface Classified {
  entry: yauzl.Entry;
  name: string;
  kind: Kind;
  /** The document's base name as written; `key` is the same folded to lower case to group by. */
  base: string;
  key: string;
}

export interface Group {
  base: string;
  xml?: Classified;
  pdf?: Classified;
  cdrs: Classified[];
  names: string[];
}
