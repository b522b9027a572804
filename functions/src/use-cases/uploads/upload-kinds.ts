import { createHash } from 'node:crypto';
import { ForbiddenError, type RouteBody, type RouteQuery, type Routes } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { CDR_LIMITS } from '../../ubl/cdr-limits.js';

export type CreateUploadBody = RouteBody<Routes['createUpload']>;
export type UploadPurpose = CreateUploadBody['purpose'];
export type InvoiceFileQuery = RouteQuery<Routes['getInvoiceFile']>;

/** Presigned links (upload and download) live at most this long. */
export const LINK_LIFETIME_SECONDS = 300;
/** How much of a file is read to recognise it (and to look for a DOCTYPE in an XML). */
export const SNIFF_BYTES = 4096;

export const MB = 1024 * 1024;

export type Kind = 'xml' | 'pdf' | 'png' | 'jpeg' | 'zip';

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

export const KINDS: Record<Kind, { label: string; ext: string; matches: (bytes: Uint8Array) => boolean }> = {
  xml: { label: 'XML', ext: '.xml', matches: looksLikeXml },
  pdf: { label: 'PDF', ext: '.pdf', matches: (bytes) => startsWith(bytes, PDF_SIGNATURE) },
  png: { label: 'PNG', ext: '.png', matches: (bytes) => startsWith(bytes, PNG_SIGNATURE) },
  jpeg: { label: 'JPG', ext: '.jpg', matches: (bytes) => startsWith(bytes, JPEG_SIGNATURE) },
  zip: { label: 'ZIP', ext: '.zip', matches: (bytes) => startsWith(bytes, ZIP_SIGNATURE) },
};

export const KIND_OF_TYPE: Readonly<Record<string, Kind>> = {
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
  /** SUNAT's CDR of the document, its XML: a few kilobytes, bounded by the reader's limit. */
  INVOICE_CDR: { contentTypes: ['application/xml', 'text/xml'], maxBytes: CDR_LIMITS.maxBytes },
  ATTACHMENT: { contentTypes: ['application/pdf', 'image/png', 'image/jpeg'], maxBytes: 10 * MB },
  /** A file attached to a message of an invoice's conversation: the same kinds, the same bound. */
  MESSAGE_ATTACHMENT: { contentTypes: ['application/pdf', 'image/png', 'image/jpeg'], maxBytes: 10 * MB },
  /**
   * A zip of up to 500 documents for 'Cargar ZIP': as large as the contents it may declare
   * (ZIP_LIMITS.maxTotalBytes in intake/zip-documents.ts, 200 MB; stored entries are not smaller than their files).
   */
  INVOICE_ZIP: { contentTypes: ['application/zip', 'application/x-zip-compressed'], maxBytes: 200 * MB },
};

/** The purpose whose checks a received file passes, by its part of the document. */
export const RECEIVED_PURPOSES = {
  xml: 'INVOICE_XML',
  pdf: 'INVOICE_PDF',
  cdr: 'INVOICE_CDR',
} as const satisfies Record<string, UploadPurpose>;

/** Server-made keys only: uploads/{tenant}/{yyyy}/{mm}/{uuid}{ext}. */
export const UPLOAD_KEY =
  /^uploads\/([^/]+)\/\d{4}\/\d{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(\.[a-z]+)$/;

/** The bare media type, lower case, without parameters ("text/xml; charset=utf-8" → "text/xml"). */
export const mediaType = (value: string | null | undefined) => (value ?? '').split(';')[0]!.trim().toLowerCase();

export const sizeText = (bytes: number) => `${bytes / MB} MB`;
export const labelsOf = (purpose: UploadPurpose) =>
  [...new Set(UPLOAD_LIMITS[purpose].contentTypes.map((type) => KINDS[KIND_OF_TYPE[type]!].label))].join(', ');

/** The user's file name as data: no directories, no control characters, bounded. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim();
  return clean.slice(0, 200) || 'archivo';
}

/** The tenant an upload belongs to: the company the caller acts for, or 'admin' for an admin acting for none. */
export function tenantOf(caller: Pick<Caller, 'level' | 'activeCompany'>): string {
  if (caller.activeCompany) return caller.activeCompany;
  if (caller.level === 'ADMIN') return 'admin';
  throw new ForbiddenError();
}

/** `attachment` or `inline`, with the name for every browser (RFC 6266 / 5987). */
export function contentDisposition(type: 'attachment' | 'inline', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** A UUID-shaped id that is the same for the same source (the key pattern wants a UUID). */
export function derivedId(source: string): string {
  const hex = createHash('sha256').update(source).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Whether two upload keys name the same stored id (a retry in another month keeps the id, not the folder). */
export function sameUploadId(a: string | null | undefined, b: string | null | undefined): boolean {
  const id = (key: string | null | undefined) => key?.split('/').pop() ?? null;
  return id(a) !== null && id(a) === id(b);
}

export function kindOfKey(key: string): Kind | undefined {
  const ext = /\.[a-z]+$/i.exec(key)?.[0].toLowerCase();
  if (ext === '.jpeg') return 'jpeg';
  return (Object.keys(KINDS) as Kind[]).find((kind) => KINDS[kind].ext === ext);
}

/** Server-made keys only: uploads/{tenant}/{yyyy}/{mm}/{id}{ext}, the month of `now`. */
export function uploadKeyOf(tenant: string, now: Date, id: string, kind: Kind): string {
  const yyyy = String(now.getUTCFullYear());
  const mm = String(now.getUTCMonth() + 1).padStart(2, '0');
  return `uploads/${tenant}/${yyyy}/${mm}/${id}${KINDS[kind].ext}`;
}

/** The type a download states for a file of `kind`: never the stored one nor a browser's guess. */
export function contentTypeOfKind(kind: Kind | undefined): string {
  return (kind && Object.keys(KIND_OF_TYPE).find((type) => KIND_OF_TYPE[type] === kind)) || 'application/octet-stream';
}
