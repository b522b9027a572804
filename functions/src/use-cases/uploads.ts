import { createHash } from 'node:crypto';
import { CDR_LIMITS } from '../ubl/cdr-limits.js';
import {
  BadRequestError,
  ForbiddenError,
  NotFoundError,
  type FileLink,
  type Invoice,
  type RouteBody,
  type RouteQuery,
  type Routes,
  type UploadTicket,
} from '@portal/shared';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { DocumentFiles } from '../adapters/s3.js';
import type { Caller } from '../http/caller.js';
import type { InvoiceStore } from '../repositories/invoice-store.js';
import type { UploadUses } from '../repositories/upload-uses.js';
import { loadInvoiceInReach, type InvoicePath } from './invoice-access.js';

export type CreateUploadBody = RouteBody<Routes['createUpload']>;
export type UploadPurpose = CreateUploadBody['purpose'];
export type InvoiceFileQuery = RouteQuery<Routes['getInvoiceFile']>;

/** Presigned links (upload and download) live at most this long. */
export const LINK_LIFETIME_SECONDS = 300;
/** How much of a file is read to recognise it (and to look for a DOCTYPE in an XML). */
export const SNIFF_BYTES = 4096;

const MB = 1024 * 1024;

type Kind = 'xml' | 'pdf' | 'png' | 'jpeg' | 'zip';

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];
const PDF_SIGNATURE = [...'%PDF-'].map((char) => char.charCodeAt(0));
/** A zip's first local file header, 'PK\x03\x04' (an empty zip, only its end record, is no batch of documents). */
const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte);

/**
 * A first look at an XML: text (no NUL byte), after an optional UTF-8 BOM and whitespace it opens
 * with '<', and no DOCTYPE (entity tricks) in its first 4 KB. The XML parser does the full check.
 */
function looksLikeXml(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, SNIFF_BYTES);
  if (head.includes(0)) return false;
  let i = startsWith(head, UTF8_BOM) ? UTF8_BOM.length : 0;
  while (i < head.length && [0x20, 0x09, 0x0a, 0x0d].includes(head[i]!)) i++;
  if (head[i] !== 0x3c) return false;
  return !Buffer.from(head).toString('latin1').toUpperCase().includes('<!DOCTYPE');
}

const KINDS: Record<Kind, { label: string; ext: string; matches: (bytes: Uint8Array) => boolean }> = {
  xml: { label: 'XML', ext: '.xml', matches: looksLikeXml },
  pdf: { label: 'PDF', ext: '.pdf', matches: (bytes) => startsWith(bytes, PDF_SIGNATURE) },
  png: { label: 'PNG', ext: '.png', matches: (bytes) => startsWith(bytes, PNG_SIGNATURE) },
  jpeg: { label: 'JPG', ext: '.jpg', matches: (bytes) => startsWith(bytes, JPEG_SIGNATURE) },
  zip: { label: 'ZIP', ext: '.zip', matches: (bytes) => startsWith(bytes, ZIP_SIGNATURE) },
};

const KIND_OF_TYPE: Readonly<Record<string, Kind>> = {
  'application/xml': 'xml',
  'text/xml': 'xml',
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'application/zip': 'zip',
  // What Windows' browsers call a .zip.
  'application/x-zip-compressed': 'zip',
};

/** What each purpose accepts (spec §5: attachments PNG, JPG, PDF). */
export const UPLOAD_LIMITS: Readonly<Record<UploadPurpose, { contentTypes: readonly string[]; maxBytes: number }>> = {
  INVOICE_XML: { contentTypes: ['application/xml', 'text/xml'], maxBytes: 2 * MB },
  INVOICE_PDF: { contentTypes: ['application/pdf'], maxBytes: 10 * MB },
  /** SUNAT's CDR of the document, its XML (issue 24): a few kilobytes, bounded by the reader's limit. */
  INVOICE_CDR: { contentTypes: ['application/xml', 'text/xml'], maxBytes: CDR_LIMITS.maxBytes },
  ATTACHMENT: { contentTypes: ['application/pdf', 'image/png', 'image/jpeg'], maxBytes: 10 * MB },
  /** A file attached to a message of an invoice's conversation (issue 23): the same kinds, the same bound. */
  MESSAGE_ATTACHMENT: { contentTypes: ['application/pdf', 'image/png', 'image/jpeg'], maxBytes: 10 * MB },
  /**
   * A zip of up to 500 documents for 'Cargar ZIP' (issue 24): as large as the contents it may declare
   * (ZIP_LIMITS.maxTotalBytes in intake/zip-documents.ts, 200 MB; stored entries are not smaller than their files).
   */
  INVOICE_ZIP: { contentTypes: ['application/zip', 'application/x-zip-compressed'], maxBytes: 200 * MB },
};

/** The purpose whose checks a received file passes, by its part of the document. */
const RECEIVED_PURPOSES = { xml: 'INVOICE_XML', pdf: 'INVOICE_PDF', cdr: 'INVOICE_CDR' } as const satisfies Record<
  string,
  UploadPurpose
>;

/** Server-made keys only: uploads/{tenant}/{yyyy}/{mm}/{uuid}{ext}. */
const UPLOAD_KEY =
  /^uploads\/([^/]+)\/\d{4}\/\d{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(\.[a-z]+)$/;

/** The bare media type, lower case, without parameters ("text/xml; charset=utf-8" → "text/xml"). */
const mediaType = (value: string | null | undefined) => (value ?? '').split(';')[0]!.trim().toLowerCase();

const sizeText = (bytes: number) => `${bytes / MB} MB`;
const labelsOf = (purpose: UploadPurpose) =>
  [...new Set(UPLOAD_LIMITS[purpose].contentTypes.map((type) => KINDS[KIND_OF_TYPE[type]!].label))].join(', ');

/** The user's file name as data: no directories, no control characters, bounded. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim();
  return clean.slice(0, 200) || 'archivo';
}

/** The tenant an upload belongs to: the company the caller acts for, or 'admin' for an admin acting for none. */
function tenantOf(caller: Pick<Caller, 'level' | 'activeCompany'>): string {
  if (caller.activeCompany) return caller.activeCompany;
  if (caller.level === 'ADMIN') return 'admin';
  throw new ForbiddenError();
}

/** `attachment` or `inline`, with the name for every browser (RFC 6266 / 5987). */
function contentDisposition(type: 'attachment' | 'inline', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
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

/** What a refusal answers: the upload codes for intake, the attachment codes for an invoice's completion. */
interface Refusals {
  notFound(): BadRequestError;
  wrongType(purpose: UploadPurpose): BadRequestError;
  tooLarge(maxBytes: number): BadRequestError;
  wrongContent(expected: string): BadRequestError;
}

export interface UploadsDeps {
  readonly files: DocumentFiles;
  readonly invoices: Pick<InvoiceStore, 'get'>;
  /** Whether an invoice names an object: such an object is never deleted by a refusal. */
  readonly uses: UploadUses;
  readonly clock: () => Date;
  readonly newId: () => string;
  readonly log: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/** The documents bucket's use cases: upload tickets, checking what arrived, and download links. */
export function makeUploads(deps: UploadsDeps) {
  const { files, clock } = deps;

  /**
   * A refused upload is deleted, so that nothing half-stored remains under a key someone might use
   * later (docs/adr/0004-files-belong-to-their-tenant.md), unless an invoice names it (an XML or PDF sent again, an invoice's file
   * offered as something else): that file is the invoice's record and stays. The refusal is logged
   * with its key and reason for the audit trail; a failed delete is logged and the refusal stands.
   */
  async function discard(key: string, reason: string, code: string): Promise<void> {
    try {
      if (await deps.uses.inUse(key)) {
        deps.log.warn('upload refused, kept: an invoice uses it', { key, reason, code });
        return;
      }
      await files.delete(key);
      deps.log.warn('upload refused and deleted', { key, reason, code });
    } catch (cause) {
      deps.log.error('refused upload could not be deleted', { key, reason, code, cause: (cause as Error).message });
    }
  }

  async function refuse(key: string, reason: string, error: BadRequestError): Promise<never> {
    await discard(key, reason, error.code);
    throw error;
  }

  const uploadRefusals: Refusals = {
    notFound: () => new BadRequestError('ERROR_UPLOAD_NOT_FOUND'),
    wrongType: (purpose) => new BadRequestError('ERROR_UPLOAD_CONTENT_MISMATCH', { expected: labelsOf(purpose) }),
    tooLarge: (maxBytes) => new BadRequestError('ERROR_UPLOAD_TOO_LARGE', { maxBytes, maxSize: sizeText(maxBytes) }),
    wrongContent: (expected) => new BadRequestError('ERROR_UPLOAD_CONTENT_MISMATCH', { expected }),
  };

  function attachmentRefusals(key: string, position: number): Refusals {
    const invalid = () =>
      new BadRequestError('ERROR_ATTACHMENT_INVALID', {
        attachment: key,
        position,
        allowed: labelsOf('ATTACHMENT'),
        maxSize: sizeText(UPLOAD_LIMITS.ATTACHMENT.maxBytes),
      });
    return {
      notFound: () => new BadRequestError('ERROR_ATTACHMENT_NOT_FOUND', { attachment: key, position }),
      wrongType: invalid,
      tooLarge: invalid,
      wrongContent: invalid,
    };
  }

  /**
   * Steps:
   * 1. the key is a server-made key of a tenant `allowed` accepts; otherwise, and when there is no
   *    such object, not found — nothing is touched (another tenant's upload is a missing one);
   * 2. the stored type fits the purpose and the size its limit (a client is never trusted);
   * 3. the first bytes are what the type says (an XML is read whole, bounded by its limit).
   * A refused object is deleted (see discard).
   */
  async function inspect(
    key: string,
    purpose: UploadPurpose,
    allowed: (tenant: string) => boolean,
    refusals: Refusals,
  ): Promise<VerifiedUpload> {
    const limits = UPLOAD_LIMITS[purpose];
    const match = UPLOAD_KEY.exec(key);
    const tenant = match?.[1];
    if (!match || tenant === undefined || !allowed(tenant)) throw refusals.notFound();

    const info = await files.head(key);
    if (!info) throw refusals.notFound();

    const contentType = mediaType(info.contentType);
    const typeProblem = judgeType(purpose, contentType, match[2]!, info.size, refusals);
    if (typeProblem) await refuse(key, typeProblem.reason, typeProblem.error);

    const whole = KIND_OF_TYPE[contentType] === 'xml';
    const bytes = await files.readStart(key, whole ? limits.maxBytes : SNIFF_BYTES);
    if (!bytes) throw refusals.notFound();
    const contentProblem = judgeContent(contentType, info.size, bytes, refusals);
    if (contentProblem) await refuse(key, contentProblem.reason, contentProblem.error);

    let fileName = cleanFileName(info.metadata.filename ?? '');
    try {
      fileName = cleanFileName(decodeURIComponent(info.metadata.filename ?? ''));
    } catch {
      // A name that is not percent-encoding is kept as stored.
    }
    return { key, size: info.size, contentType, fileName, ...(whole ? { bytes } : {}) };
  }

  return {
    /**
     * POST /uploads. Steps:
     * 1. the declared type and size fit the purpose;
     * 2. the server makes the key under the caller's tenant (the file name is metadata, never the key);
     * 3. a presigned POST bound to that key, type and size range, valid for five minutes.
     */
    async createTicket(caller: Caller, body: CreateUploadBody): Promise<UploadTicket> {
      const limits = UPLOAD_LIMITS[body.purpose];
      const contentType = mediaType(body.contentType);
      if (!limits.contentTypes.includes(contentType)) {
        throw new BadRequestError('ERROR_UPLOAD_TYPE_NOT_ALLOWED', {
          contentType: body.contentType,
          allowed: limits.contentTypes.join(', '),
        });
      }
      if (body.size > limits.maxBytes) {
        throw new BadRequestError('ERROR_UPLOAD_TOO_LARGE', {
          maxBytes: limits.maxBytes,
          maxSize: sizeText(limits.maxBytes),
        });
      }
      const now = clock();
      const yyyy = String(now.getUTCFullYear());
      const mm = String(now.getUTCMonth() + 1).padStart(2, '0');
      const key = `uploads/${tenantOf(caller)}/${yyyy}/${mm}/${deps.newId()}${KINDS[KIND_OF_TYPE[contentType]!].ext}`;
      const post = await files.presignPost({
        key,
        contentType,
        maxBytes: limits.maxBytes,
        expiresInSeconds: LINK_LIFETIME_SECONDS,
        // Metadata travels as ASCII: the name is percent-encoded and decoded when read back.
        metadata: { filename: encodeURIComponent(cleanFileName(body.fileName)) },
      });
      return {
        key,
        url: post.url,
        fields: post.fields,
        expiresAt: new Date(now.getTime() + LINK_LIFETIME_SECONDS * 1000).toISOString(),
        maxBytes: limits.maxBytes,
      };
    },

    /**
     * What the intake use cases call before they trust an uploaded key (see inspect): the key must be
     * under one of the caller's tenants (an admin's: any).
     */
    verifyUpload(key: string, purpose: UploadPurpose, caller: Caller): Promise<VerifiedUpload> {
      const mine = (tenant: string) => caller.level === 'ADMIN' || caller.taxIds.includes(tenant);
      return inspect(key, purpose, mine, uploadRefusals);
    },

    /**
     * What an invoice's completion calls for each attachment it adds (see inspect): the key must be
     * an upload made for one of `tenants` (the invoice's company, and 'admin' for an admin), and it
     * must pass the attachment checks. `position` (1-based) names it in the refusal.
     */
    verifyAttachment(key: string, tenants: readonly string[], position: number): Promise<VerifiedUpload> {
      return inspect(key, 'ATTACHMENT', (tenant) => tenants.includes(tenant), attachmentRefusals(key, position));
    },

    /**
     * What posting a message calls for each file it attaches (see inspect): an upload for MESSAGE_ATTACHMENT made
     * for one of `tenants` (the poster's side of the invoice), checked by its bytes. `position` (1-based) names it.
     */
    verifyMessageAttachment(key: string, tenants: readonly string[], position: number): Promise<VerifiedUpload> {
      const invalid = () =>
        new BadRequestError('ERROR_MESSAGE_ATTACHMENT_INVALID', {
          attachment: key,
          position,
          allowed: labelsOf('MESSAGE_ATTACHMENT'),
          maxSize: sizeText(UPLOAD_LIMITS.MESSAGE_ATTACHMENT.maxBytes),
        });
      return inspect(key, 'MESSAGE_ATTACHMENT', (tenant) => tenants.includes(tenant), {
        notFound: () => new BadRequestError('ERROR_MESSAGE_ATTACHMENT_NOT_FOUND', { attachment: key, position }),
        wrongType: invalid,
        tooLarge: invalid,
        wrongContent: invalid,
      });
    },

    /**
     * A five-minute link that downloads a file (never shown inline, whatever it is: a message's attachment), its
     * type stated from its checked kind, under `fileName`. The caller has checked that the file is within reach.
     */
    async downloadLink(key: string, fileName: string): Promise<FileLink> {
      const kind = kindOfKey(key);
      const contentType =
        (kind && Object.keys(KIND_OF_TYPE).find((type) => KIND_OF_TYPE[type] === kind)) || 'application/octet-stream';
      const name = cleanFileName(fileName);
      const url = await files.presignGet({
        key,
        expiresInSeconds: LINK_LIFETIME_SECONDS,
        contentDisposition: contentDisposition('attachment', name),
        contentType,
      });
      return {
        url,
        expiresAt: new Date(clock().getTime() + LINK_LIFETIME_SECONDS * 1000).toISOString(),
        fileName: name,
      };
    },

    /**
     * A file that arrived inside a zip or an e-mail (issue 24), stored as an upload of the caller's tenant would
     * be, so that the intake checks it exactly as it checks a presigned upload. Its key's id is derived from
     * `sourceKey` and the part: the same document stored again (a retried message) lands on the same key, and the
     * intake recognises its own invoice by it. The file name is metadata, as for an upload.
     */
    async storeReceived(
      caller: Caller,
      sourceKey: string,
      part: 'xml' | 'pdf' | 'cdr',
      file: { readonly name: string; readonly bytes: Uint8Array },
    ): Promise<string> {
      const kind: Kind = part === 'pdf' ? 'pdf' : 'xml';
      const contentType = kind === 'pdf' ? 'application/pdf' : 'application/xml';
      const purpose = RECEIVED_PURPOSES[part];
      const now = clock();
      const yyyy = String(now.getUTCFullYear());
      const mm = String(now.getUTCMonth() + 1).padStart(2, '0');
      const tenant = tenantOf(caller);
      const key = `uploads/${tenant}/${yyyy}/${mm}/${derivedId(`${sourceKey}#${part}`)}${KINDS[kind].ext}`;
      // verifyUpload's checks, on the bytes in hand rather than on the object read back (issue 25): the same
      // tenant rule, stored type, size limit and content by its bytes, so a file refused here is never stored.
      if (!(caller.level === 'ADMIN' || caller.taxIds.includes(tenant))) throw uploadRefusals.notFound();
      const problem =
        judgeType(purpose, contentType, KINDS[kind].ext, file.bytes.length, uploadRefusals) ??
        judgeContent(contentType, file.bytes.length, file.bytes, uploadRefusals);
      if (problem) {
        deps.log.warn('received file refused, not stored', { key, reason: problem.reason, code: problem.error.code });
        throw problem.error;
      }
      await files.put(key, file.bytes, contentType, { filename: encodeURIComponent(cleanFileName(file.name)) });
      return key;
    },

    /**
     * An upload the intake verified and then refused (unreadable XML, wrong RUC or company, duplicate…):
     * deleted like any refused upload, unless an invoice uses it.
     */
    discardRefused(key: string, reason: string, code: string): Promise<void> {
      return discard(key, reason, code);
    },

    /**
     * GET …/files: a five-minute link to the invoice's XML, PDF or attachment: a PDF shown inline,
     * anything else downloaded. The invoice is reached exactly as its detail is; a file it lacks is 404.
     */
    async fileLink(caller: Caller, path: InvoicePath, query: InvoiceFileQuery): Promise<FileLink> {
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
      const fileName = downloadName(invoice, query.file, index, kind);
      // The type is always stated, never the stored one nor a browser's guess: a file that is also
      // HTML (a polyglot) is then a PDF or a download, never a page. Only a PDF, checked by its bytes
      // when it came in, is shown inline (by the browser's PDF viewer); everything else downloads.
      const contentType =
        (kind && Object.keys(KIND_OF_TYPE).find((type) => KIND_OF_TYPE[type] === kind)) || 'application/octet-stream';
      const url = await files.presignGet({
        key,
        expiresInSeconds: LINK_LIFETIME_SECONDS,
        contentDisposition: contentDisposition(kind === 'pdf' ? 'inline' : 'attachment', fileName),
        contentType,
      });
      return {
        url,
        expiresAt: new Date(clock().getTime() + LINK_LIFETIME_SECONDS * 1000).toISOString(),
        fileName,
      };
    },
  };
}

/** What `inspect` refuses, and why (for the log). */
interface Problem {
  readonly reason: string;
  readonly error: BadRequestError;
}

/** The stored type fits the purpose and the key's extension, and the size its limit. */
function judgeType(
  purpose: UploadPurpose,
  contentType: string,
  ext: string,
  size: number,
  refusals: Pick<Refusals, 'wrongType' | 'tooLarge'>,
): Problem | null {
  const limits = UPLOAD_LIMITS[purpose];
  const kind = KIND_OF_TYPE[contentType];
  if (!kind || !limits.contentTypes.includes(contentType) || KINDS[kind].ext !== ext) {
    return { reason: `stored type ${contentType || 'none'}`, error: refusals.wrongType(purpose) };
  }
  if (size > limits.maxBytes) return { reason: `size ${size}`, error: refusals.tooLarge(limits.maxBytes) };
  return null;
}

/**
 * The bytes are what the type says: for an XML, all of it (an XML that grew or shrank since the HEAD was replaced
 * in between: only what was read is judged); for the others, their first bytes. The type passed judgeType.
 */
function judgeContent(
  contentType: string,
  size: number,
  bytes: Uint8Array,
  refusals: Pick<Refusals, 'wrongContent'>,
): Problem | null {
  const kind = KIND_OF_TYPE[contentType]!;
  const expected = KINDS[kind];
  const consistent = kind !== 'xml' || bytes.length === size;
  if (size === 0 || bytes.length === 0 || !consistent || !expected.matches(bytes)) {
    return { reason: `content is not ${expected.label}`, error: refusals.wrongContent(expected.label) };
  }
  return null;
}

/** A UUID-shaped id that is the same for the same source (the key pattern wants a UUID). */
function derivedId(source: string): string {
  const hex = createHash('sha256').update(source).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Whether two upload keys name the same stored id (a retry in another month keeps the id, not the folder). */
export function sameUploadId(a: string | null | undefined, b: string | null | undefined): boolean {
  const id = (key: string | null | undefined) => key?.split('/').pop() ?? null;
  return id(a) !== null && id(a) === id(b);
}

function kindOfKey(key: string): Kind | undefined {
  const ext = /\.[a-z]+$/i.exec(key)?.[0].toLowerCase();
  if (ext === '.jpeg') return 'jpeg';
  return (Object.keys(KINDS) as Kind[]).find((kind) => KINDS[kind].ext === ext);
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

export type Uploads = ReturnType<typeof makeUploads>;
