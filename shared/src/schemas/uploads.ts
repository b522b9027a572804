import * as z from 'zod/mini';
import { TEXT_LIMITS } from '../limits.js';
import { IsoDateTime } from './common.js';

// Files: presigned uploads and the links that open an invoice's files.

/** A presigned POST: the browser sends the file straight to S3 with these fields, within the limits. */
export const UploadTicket = z.object({
  key: z.string(),
  url: z.string(),
  fields: z.record(z.string(), z.string()),
  expiresAt: IsoDateTime,
  maxBytes: z.int(),
});
export type UploadTicket = z.infer<typeof UploadTicket>;

/** A short-lived presigned GET for one file of an invoice. */
export const FileLink = z.object({ url: z.string(), expiresAt: IsoDateTime, fileName: z.string() });
export type FileLink = z.infer<typeof FileLink>;

/** INVOICE_ZIP: a zip of many documents for POST /intake-batches. */
export const UPLOAD_PURPOSES = [
  'INVOICE_XML',
  'INVOICE_PDF',
  'INVOICE_CDR',
  'ATTACHMENT',
  'MESSAGE_ATTACHMENT',
  'INVOICE_ZIP',
] as const;

/** POST /uploads: the file the browser is about to send; the server makes the key. */
export const CreateUploadBody = z.object({
  purpose: z.enum(UPLOAD_PURPOSES),
  fileName: z.string().check(z.trim(), z.minLength(1), z.maxLength(TEXT_LIMITS.fileName)),
  contentType: z.string().check(z.trim(), z.minLength(1), z.maxLength(TEXT_LIMITS.contentType)),
  size: z.int().check(z.positive()),
});

/** GET …/files: which of the invoice's files to open (its XML, its PDF, or an attachment by position). */
export const InvoiceFileQuery = z.object({
  file: z.enum(['xml', 'pdf', 'attachment', 'cdr']),
  index: z.optional(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(19))),
});
