import { crc32 } from 'node:zlib';
import type { Readable } from 'node:stream';
import { BadRequestError, formatErrorMessage, type ErrorCode, type ErrorItem } from '@portal/shared';
import yauzl from 'yauzl';
import { UPLOAD_LIMITS } from '../use-cases/uploads/upload-kinds.js';

/**
 * A zip of many documents (issue 24): each XML with its PDF by the same base name, optionally SUNAT's CDR as
 * R-<base>.xml or R-<base>.zip. The zip's central directory is checked whole before a single byte is inflated
 * (docs/adr/0033-zip-intake.md), then every entry is inflated once and thrown away, to check that its data is what
 * the directory declares (its size and CRC-32): a zip that lies is refused before any of its documents is registered.
 * Only then are the documents read, one at a time, so a worker holds one document's files in memory however many
 * the zip has.
 */

const MB = 1024 * 1024;

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
const CDR_ZIP_MAX_ENTRIES = 5;

/** A zip refused whole: nothing of it is to be stored. */
export class ZipRefusedError extends BadRequestError {}

const refuse = (code: ErrorCode, parameters: Record<string, unknown> = {}) => new ZipRefusedError(code, parameters);

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

type Kind = 'xml' | 'pdf' | 'cdrXml' | 'cdrZip';

interface Classified {
  entry: yauzl.Entry;
  name: string;
  kind: Kind;
  /** The document's base name as written; `key` is the same folded to lower case to group by. */
  base: string;
  key: string;
}

interface Group {
  base: string;
  xml?: Classified;
  pdf?: Classified;
  cdrs: Classified[];
  names: string[];
}

/**
 * Opens a zip and checks it whole: refused with a ZipRefusedError (ERROR_ZIP_*) for too many entries or documents,
 * too large, a suspicious compression ratio, unsafe or duplicate names, encrypted entries, zips other than a CDR,
 * unknown file types (its central directory, before anything is inflated), and for an entry whose data is not what
 * the directory declares (ERROR_ZIP_ENTRY_CORRUPT: inflated past or short of its size, a CRC-32 that differs, a
 * broken deflate stream).
 */
export async function openZipDocuments(
  source: ZipSource,
  limits: Readonly<ZipLimits> = ZIP_LIMITS,
): Promise<ZipDocuments> {
  const zip = await openZip(source);
  let closed = false;
  const close = () => {
    if (!closed) {
      closed = true;
      zip.close();
    }
  };
  try {
    if (zip.entryCount > limits.maxEntries) {
      throw refuse('ERROR_ZIP_TOO_MANY_ENTRIES', { count: zip.entryCount, limit: limits.maxEntries });
    }
    const { entries, declaredBytes } = await readCentralDirectory(zip, limits);
    const groups = groupDocuments(entries);
    if (groups.length === 0) throw refuse('ERROR_ZIP_EMPTY');
    const documentCount = groups.length;
    if (documentCount > limits.maxDocuments) {
      throw refuse('ERROR_ZIP_TOO_MANY_DOCUMENTS', { count: documentCount, limit: limits.maxDocuments });
    }
    for (const entry of entries) await verifyEntry(zip, entry);
    let iterated = false;
    return {
      documentCount,
      entryCount: zip.entryCount,
      declaredBytes,
      close,
      [Symbol.asyncIterator]() {
        if (iterated) throw new Error('The documents of a zip are read once.');
        iterated = true;
        return readDocuments(zip, groups, limits, close);
      },
    };
  } catch (error) {
    close();
    throw error;
  }
}

async function* readDocuments(
  zip: yauzl.ZipFile,
  groups: Group[],
  limits: Readonly<ZipLimits>,
  close: () => void,
): AsyncGenerator<ZipDocument> {
  try {
    for (const group of groups) yield await readDocument(zip, group, limits);
  } finally {
    close();
  }
}

async function readDocument(zip: yauzl.ZipFile, group: Group, limits: Readonly<ZipLimits>): Promise<ZipDocument> {
  const problem = (code: ErrorCode, parameters: Record<string, unknown>): ZipDocument => ({
    base: group.base,
    ok: false,
    names: group.names,
    error: { code, parameters },
    message: formatErrorMessage(code, parameters),
  });
  if (!group.xml) return problem('ERROR_ZIP_DOCUMENT_WITHOUT_XML', { base: group.base, files: group.names.join(', ') });
  if (group.cdrs.length > 1) {
    return problem('ERROR_ZIP_DOCUMENT_TWO_CDRS', {
      base: group.base,
      files: group.cdrs.map((c) => c.name).join(', '),
    });
  }
  const xml = { name: group.xml.name, bytes: await readEntry(zip, group.xml.entry) };
  const pdf = group.pdf && { name: group.pdf.name, bytes: await readEntry(zip, group.pdf.entry) };
  const cdrFile = group.cdrs[0];
  let cdr: ZipPart | undefined;
  if (cdrFile?.kind === 'cdrXml') cdr = { name: cdrFile.name, bytes: await readEntry(zip, cdrFile.entry) };
  if (cdrFile?.kind === 'cdrZip') {
    try {
      cdr = await readCdrZip(await readEntry(zip, cdrFile.entry), limits);
    } catch (error) {
      if (!(error instanceof ZipRefusedError)) throw error;
      return problem('ERROR_ZIP_CDR_INVALID', {
        base: group.base,
        name: cdrFile.name,
        reason: error.message,
        cause: error.code,
      });
    }
  }
  return { base: group.base, ok: true, xml, ...(pdf ? { pdf } : {}), ...(cdr ? { cdr } : {}) };
}

/** A CDR zip, read with the same checks one level down: one R-*.xml (and empty folders SUNAT adds), nothing else. */
export async function readCdrZip(bytes: Buffer, limits: Readonly<ZipLimits>): Promise<ZipPart> {
  const zip = await openZip(bytes);
  try {
    if (zip.entryCount > CDR_ZIP_MAX_ENTRIES) {
      throw refuse('ERROR_ZIP_TOO_MANY_ENTRIES', { count: zip.entryCount, limit: CDR_ZIP_MAX_ENTRIES });
    }
    const { entries } = await readCentralDirectory(zip, { ...limits, maxTotalBytes: limits.maxXmlBytes }, true);
    const xmls = entries.filter((e) => e.kind === 'cdrXml');
    const others = entries.filter((e) => e.kind !== 'cdrXml');
    if (others.some((e) => e.kind === 'cdrZip')) throw refuse('ERROR_ZIP_NESTED', { name: others[0]!.name });
    if (xmls.length !== 1 || others.length > 0) throw refuse('ERROR_ZIP_CDR_CONTENT');
    return { name: xmls[0]!.name, bytes: await readEntry(zip, xmls[0]!.entry) };
  } finally {
    zip.close();
  }
}

async function openZip(source: ZipSource): Promise<yauzl.ZipFile> {
  // Names are decoded and checked here (decodeStrings off), so an unsafe one is refused with its own code;
  // validateEntrySizes makes yauzl stop a stream that inflates past its declared size. No autoClose: the
  // documents are read after the whole central directory, and the caller closes (readDocuments does).
  const options: yauzl.Options = {
    lazyEntries: true,
    autoClose: false,
    decodeStrings: false,
    validateEntrySizes: true,
    strictFileNames: true,
  };
  try {
    return Buffer.isBuffer(source)
      ? await yauzl.fromBufferPromise(source, options)
      : await yauzl.openPromise(source.path, options);
  } catch (error) {
    throw invalid(error);
  }
}

const invalid = (error: unknown) => refuse('ERROR_ZIP_INVALID', { detail: String(error) });

/** Every entry of the central directory, checked; `skipEmptyFolders` for a CDR zip's `dummy/`. */
async function readCentralDirectory(
  zip: yauzl.ZipFile,
  limits: Readonly<ZipLimits>,
  skipEmptyFolders = false,
): Promise<{ entries: Classified[]; declaredBytes: number }> {
  const entries: Classified[] = [];
  const seen = new Set<string>();
  let declaredBytes = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
      if (skipEmptyFolders && isEmptyFolder(name, entry)) continue;
      checkName(name, limits);
      const folded = name.toLowerCase();
      if (seen.has(folded)) throw refuse('ERROR_ZIP_DUPLICATE_NAME', { name });
      seen.add(folded);
      if (entry.isEncrypted()) throw refuse('ERROR_ZIP_ENCRYPTED', { name });
      if (!entry.canDecodeFileData())
        throw refuse('ERROR_ZIP_INVALID', { detail: `${name}: método ${entry.compressionMethod}` });
      const classified = classify(entry, name);
      checkSize(classified, limits);
      declaredBytes += entry.uncompressedSize;
      if (declaredBytes > limits.maxTotalBytes) {
        throw refuse('ERROR_ZIP_TOO_LARGE', { limit: sizeText(limits.maxTotalBytes) });
      }
      entries.push(classified);
    }
  } catch (error) {
    throw error instanceof ZipRefusedError ? error : invalid(error);
  }
  return { entries, declaredBytes };
}

const isEmptyFolder = (name: string, entry: yauzl.Entry) =>
  /^[^/\\]+\/$/.test(name) && entry.uncompressedSize === 0 && !/^\.\.?\/$/.test(name);

// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Shown in a message: control characters as '?', a long name cut. */
const shown = (name: string) => name.replace(new RegExp(CONTROL.source, 'g'), '?').slice(0, 200);

function checkName(name: string, limits: Readonly<ZipLimits>): void {
  const unsafe = (reason: string) => refuse('ERROR_ZIP_UNSAFE_NAME', { name: shown(name), reason });
  if (CONTROL.test(name)) throw unsafe('contiene caracteres de control');
  if (name.length === 0) throw unsafe('está vacío');
  if (name.length > limits.maxNameLength) throw unsafe(`supera los ${limits.maxNameLength} caracteres`);
  if (name.includes('\\')) throw unsafe('contiene una barra invertida (\\)');
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) throw unsafe('es una ruta absoluta');
  if (name.split('/').some((part) => part === '..' || part === '.')) throw unsafe('sale de la raíz del ZIP (..)');
  if (name.includes('/')) throw unsafe('está dentro de una carpeta');
  if (name.includes(':')) throw unsafe('contiene «:»');
}

function classify(entry: yauzl.Entry, name: string): Classified {
  const match = /^(.+)\.([^.]+)$/.exec(name);
  const ext = match?.[2]!.toLowerCase();
  const stem = match?.[1] ?? name;
  const cdr = /^r-(.+)$/i.exec(stem);
  const at = (kind: Kind, base: string): Classified => ({ entry, name, kind, base, key: base.toLowerCase() });
  if (ext === 'xml') return cdr ? at('cdrXml', cdr[1]!) : at('xml', stem);
  if (ext === 'pdf') return at('pdf', stem);
  if (ext === 'zip') {
    if (cdr) return at('cdrZip', cdr[1]!);
    throw refuse('ERROR_ZIP_NESTED', { name });
  }
  throw refuse('ERROR_ZIP_UNKNOWN_FILE_TYPE', { name });
}

const KIND_LABEL: Record<Kind, string> = { xml: 'XML', pdf: 'PDF', cdrXml: 'CDR', cdrZip: 'CDR' };

function checkSize({ entry, name, kind }: Classified, limits: Readonly<ZipLimits>): void {
  const { compressedSize, uncompressedSize } = entry;
  // The ratio first: a bomb is named a bomb, whatever the size of the file it claims to be.
  if (uncompressedSize > limits.ratioFloorBytes && uncompressedSize > compressedSize * limits.maxRatio) {
    const ratio = compressedSize === 0 ? '∞' : String(Math.round(uncompressedSize / compressedSize));
    throw refuse('ERROR_ZIP_SUSPICIOUS_RATIO', { name, ratio });
  }
  const max = kind === 'pdf' ? limits.maxPdfBytes : kind === 'cdrZip' ? limits.maxCdrZipBytes : limits.maxXmlBytes;
  if (uncompressedSize > max || (kind === 'cdrZip' && compressedSize > max)) {
    throw refuse('ERROR_ZIP_ENTRY_TOO_LARGE', {
      name,
      kind: KIND_LABEL[kind],
      size: sizeText(uncompressedSize),
      limit: sizeText(max),
    });
  }
}

function sizeText(bytes: number): string {
  if (bytes >= MB) return `${Math.round((bytes / MB) * 10) / 10} MB`;
  return `${Math.ceil(bytes / 1024)} KB`;
}

function groupDocuments(entries: Classified[]): Group[] {
  const groups = new Map<string, Group>();
  for (const file of entries) {
    let group = groups.get(file.key);
    if (!group) {
      group = { base: file.base, cdrs: [], names: [] };
      groups.set(file.key, group);
    }
    group.names.push(file.name);
    if (file.kind === 'xml') {
      group.xml = file;
      group.base = file.base;
    } else if (file.kind === 'pdf') group.pdf = file;
    else group.cdrs.push(file);
  }
  return [...groups.values()];
}

/**
 * Inflates one entry to nothing, checking it is what the central directory declares: its size (never past it: the
 * stream stops there) and its CRC-32.
 */
async function verifyEntry(zip: yauzl.ZipFile, { entry, name }: Classified): Promise<void> {
  const corrupt = (reason: string) => refuse('ERROR_ZIP_ENTRY_CORRUPT', { name: shown(name), reason });
  let stream: Readable;
  try {
    stream = await zip.openReadStreamPromise(entry);
  } catch {
    throw corrupt('no se puede leer');
  }
  let length = 0;
  let crc = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      length += chunk.length;
      if (length > entry.uncompressedSize) throw corrupt('tiene más datos de los que declara');
      crc = crc32(chunk, crc);
    }
  } catch (error) {
    stream.destroy();
    if (error instanceof ZipRefusedError) throw error;
    // yauzl's own size check, or zlib's on a broken deflate stream.
    const said = String(error);
    if (/too many bytes/i.test(said)) throw corrupt('tiene más datos de los que declara');
    if (/not enough bytes/i.test(said)) throw corrupt('tiene menos datos de los que declara');
    throw corrupt('sus datos comprimidos están dañados');
  }
  if (length !== entry.uncompressedSize) throw corrupt('tiene menos datos de los que declara');
  if (crc !== entry.crc32) throw corrupt('su suma de control CRC-32 no coincide');
}

/** One entry's bytes, bounded by its declared size (yauzl checks it too) and its CRC-32 checked. */
async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  let stream: Readable;
  try {
    stream = await zip.openReadStreamPromise(entry);
  } catch (error) {
    throw invalid(error);
  }
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      length += chunk.length;
      if (length > entry.uncompressedSize) throw new Error('more bytes than declared');
      chunks.push(chunk);
    }
  } catch (error) {
    stream.destroy();
    throw invalid(error);
  }
  const bytes = Buffer.concat(chunks, length);
  if (bytes.length !== entry.uncompressedSize || crc32(bytes) !== entry.crc32) {
    throw invalid(new Error('CRC-32 or size mismatch'));
  }
  return bytes;
}
