import { NotFoundError, type FileLink, type Invoice } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { loadInvoiceInReach, type InvoicePath } from '../invoice-access.js';
import {
  KINDS,
  LINK_LIFETIME_SECONDS,
  cleanFileName,
  contentDisposition,
  contentTypeOfKind,
  kindOfKey,
  type InvoiceFileQuery,
  type Kind,
} from './upload-kinds.js';
import type { UploadsDeps } from './uploads-deps.js';

type LinkDeps = Pick<UploadsDeps, 'files' | 'clock'>;

/** A five-minute presigned GET of `key` under `fileName`, shown inline or downloaded, its type stated. */
async function presignedLink(
  deps: LinkDeps,
  key: string,
  disposition: 'inline' | 'attachment',
  kind: Kind | undefined,
  fileName: string,
): Promise<FileLink> {
  const url = await deps.files.presignGet({
    key,
    expiresInSeconds: LINK_LIFETIME_SECONDS,
    contentDisposition: contentDisposition(disposition, fileName),
    contentType: contentTypeOfKind(kind),
  });
  return {
    url,
    expiresAt: new Date(deps.clock().getTime() + LINK_LIFETIME_SECONDS * 1000).toISOString(),
    fileName,
  };
}

/**
 * A five-minute link that downloads a file (never shown inline, whatever it is: a message's attachment), its
 * type stated from its checked kind, under `fileName`. The caller has checked that the file is within reach.
 */
export function downloadLink(deps: LinkDeps, key: string, fileName: string): Promise<FileLink> {
  return presignedLink(deps, key, 'attachment', kindOfKey(key), cleanFileName(fileName));
}

/**
 * GET …/files: a five-minute link to the invoice's XML, PDF or attachment: a PDF shown inline,
 * anything else downloaded. The invoice is reached exactly as its detail is; a file it lacks is 404.
 */
export async function invoiceFileLink(
  deps: LinkDeps & Pick<UploadsDeps, 'invoices'>,
  caller: Caller,
  path: InvoicePath,
  query: InvoiceFileQuery,
): Promise<FileLink> {
  const invoice = await loadInvoiceInReach(deps.invoices, caller, path);
  const index = query.index ?? 0;
  const key = {
    xml: invoice.xmlUrl,
    pdf: invoice.pdfUrl,
    attachment: invoice.attachments[index],
    cdr: invoice.supplierCdr?.fileKey,
  }[query.file];
  if (!key) throw new NotFoundError('ERROR_FILE_NOT_FOUND');

  const kind = query.file === 'xml' || query.file === 'cdr' ? 'xml' : kindOfKey(key);
  // The type is always stated, never the stored one nor a browser's guess: a file that is also
  // HTML (a polyglot) is then a PDF or a download, never a page. Only a PDF, checked by its bytes
  // when it came in, is shown inline (by the browser's PDF viewer); everything else downloads.
  return presignedLink(
    deps,
    key,
    kind === 'pdf' ? 'inline' : 'attachment',
    kind,
    downloadName(invoice, query.file, index, kind),
  );
}

/** The name a download gets: the supplier's RUC and the invoice number, as SUNAT names its files. */
function downloadName(
  invoice: Pick<Invoice, 'supplierId' | 'id'>,
  file: InvoiceFileQuery['file'],
  index: number,
  kind: Kind | undefined,
): string {
  const base = `${invoice.supplierId}-${invoice.id}`;
  if (file === 'attachment') return `${base}-adjunto-${index + 1}${kind ? KINDS[kind].ext : ''}`;
  // SUNAT names a CDR after its document with an R- in front.
  if (file === 'cdr') return `R-${base}.xml`;
  return `${base}${file === 'xml' ? '.xml' : '.pdf'}`;
}
