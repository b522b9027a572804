import type yauzl from 'yauzl';
import { formatErrorMessage, type ErrorCode } from '@portal/shared';
import {
  CDR_ZIP_MAX_ENTRIES,
  ZIP_LIMITS,
  ZipRefusedError,
  refuse,
  type Group,
  type ZipDocument,
  type ZipDocuments,
  type ZipLimits,
  type ZipPart,
  type ZipSource,
} from './zip-limits.js';
import { groupDocuments, openZip, readCentralDirectory, readEntry, verifyEntry } from './zip-entries.js';

export { ZIP_LIMITS, ZipRefusedError };
export type { ZipDocument, ZipDocuments, ZipLimits, ZipPart, ZipSource };

/**
 * A zip of many documents: each XML with its PDF by the same base name, optionally SUNAT's CDR as
 * R-<base>.xml or R-<base>.zip. The zip's central directory is checked whole before a single byte is inflated
 * (docs/adr/0033-zip-intake.md), then every entry is inflated once and thrown away, to check that its data is what
 * the directory declares (its size and CRC-32): a zip that lies is refused before any of its documents is registered.
 * Only then are the documents read, one at a time, so a worker holds one document's files in memory however many
 * the zip has.
 */

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
