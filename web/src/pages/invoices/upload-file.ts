import { routes, type UploadTicket } from '@portal/shared';
import { apiCall } from '../../api/client';
import { invoicesMessages } from './messages';

export type UploadPurpose = 'INVOICE_XML' | 'INVOICE_PDF' | 'ATTACHMENT' | 'INVOICE_ZIP';

const MB = 1024 * 1024;

/**
 * What each purpose accepts, checked before anything is sent (the API checks type, size and first
 * bytes again, docs/adr/0001-calls-and-headers.md "Uploads and downloads"): the XML of a comprobante up to 2 MB, its
 * PDF up to 10 MB.
 */
export const FILE_RULES = {
  INVOICE_XML: { extension: '.xml', contentTypes: ['application/xml', 'text/xml'], maxBytes: 2 * MB },
  INVOICE_PDF: { extension: '.pdf', contentTypes: ['application/pdf'], maxBytes: 10 * MB },
  /** SUNAT's CDR (R-….xml) of the document. */
  INVOICE_CDR: { extension: '.xml', contentTypes: ['application/xml', 'text/xml'], maxBytes: 256 * 1024 },
  /** 'Cargar ZIP': up to 500 documents; Windows' browsers call a zip application/x-zip-compressed. */
  INVOICE_ZIP: {
    extension: '.zip',
    contentTypes: ['application/zip', 'application/x-zip-compressed'],
    maxBytes: 200 * MB,
  },
} as const;

/** A file refused before upload; its message is for the user. */
export class FileRejectedError extends Error {
  override readonly name = 'FileRejectedError';
}

const sizeText = (bytes: number) => (bytes < MB ? `${bytes / 1024} KB` : `${bytes / MB} MB`);

/**
 * The content type to declare for a file: the browser's when it is one the purpose accepts, else the
 * purpose's own when the extension says so (browsers report '' or odd types for .xml on some systems).
 * Throws FileRejectedError when the file cannot be what the purpose needs.
 */
export function contentTypeFor(file: File, purpose: keyof typeof FILE_RULES): string {
  const rule = FILE_RULES[purpose];
  const declared = file.type.split(';')[0]!.trim().toLowerCase();
  const byName = file.name.toLowerCase().endsWith(rule.extension);
  const type = (rule.contentTypes as readonly string[]).includes(declared)
    ? declared
    : byName
      ? rule.contentTypes[0]
      : null;
  if (!type) {
    throw new FileRejectedError(
      purpose === 'INVOICE_PDF'
        ? invoicesMessages.create.pdfNotPdf
        : purpose === 'INVOICE_ZIP'
          ? invoicesMessages.upload.notZip
          : invoicesMessages.upload.notXml,
    );
  }
  if (file.size === 0) throw new FileRejectedError(invoicesMessages.upload.empty);
  if (file.size > rule.maxBytes) throw new FileRejectedError(invoicesMessages.upload.tooLarge(sizeText(rule.maxBytes)));
  return type;
}

/** Sends the file to the bucket with the ticket's presigned POST, reporting progress (0–100). */
function postToBucket(ticket: UploadTicket, file: File, onProgress: (percent: number) => void): Promise<void> {
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.fields)) form.append(name, value);
  form.append('file', file);
  // XMLHttpRequest, not fetch: only it reports upload progress. This is S3, not the API.
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', ticket.url);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    request.onload = () =>
      request.status >= 200 && request.status < 300
        ? resolve()
        : reject(new FileRejectedError(invoicesMessages.upload.storageFailed));
    request.onerror = () => reject(new FileRejectedError(invoicesMessages.upload.storageFailed));
    request.onabort = () => reject(new FileRejectedError(invoicesMessages.upload.storageFailed));
    request.send(form);
  });
}

/**
 * POST /uploads for a ticket, then the file straight to the bucket. Returns the stored key, which the
 * invoice calls take as `url` / `pdfUrl`.
 */
export async function uploadFile(
  file: File,
  purpose: keyof typeof FILE_RULES,
  onProgress: (percent: number) => void = () => undefined,
): Promise<string> {
  const contentType = contentTypeFor(file, purpose);
  const ticket = await apiCall(routes.createUpload, {
    body: { purpose, fileName: file.name, contentType, size: file.size },
  });
  if (file.size > ticket.maxBytes) {
    throw new FileRejectedError(invoicesMessages.upload.tooLarge(sizeText(ticket.maxBytes)));
  }
  onProgress(0);
  await postToBucket(ticket, file, onProgress);
  onProgress(100);
  return ticket.key;
}

/** Spec §8's display rule for API failures; a refused file says why in its own words. */
export function isFileRejection(error: unknown): error is FileRejectedError {
  return error instanceof FileRejectedError;
}
