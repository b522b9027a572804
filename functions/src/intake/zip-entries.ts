import yauzl from 'yauzl';
import { crc32 } from 'node:zlib';
import type { Readable } from 'node:stream';
import {
  MB,
  ZipRefusedError,
  refuse,
  type Classified,
  type Group,
  type Kind,
  type ZipLimits,
  type ZipSource,
} from './zip-limits.js';

/* A zip's central directory, checked whole, and its entries, verified and read one by one. */

export async function openZip(source: ZipSource): Promise<yauzl.ZipFile> {
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
export async function readCentralDirectory(
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

export function groupDocuments(entries: Classified[]): Group[] {
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
export async function verifyEntry(zip: yauzl.ZipFile, { entry, name }: Classified): Promise<void> {
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
export async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
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
