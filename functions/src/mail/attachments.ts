import { INBOUND_MAIL } from '@portal/shared';
import { simpleParser, type Attachment } from 'mailparser';
import { ZIP_LIMITS, ZipRefusedError, openZipDocuments, readCdrZip } from '../intake/zip-documents.js';

/** One file of a document received by e-mail. */
export interface MailFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/** A document of the message: its XML with its PDF and CDR, or why it cannot be taken (the others still are). */
export type MailDocument =
  | {
      readonly base: string;
      readonly ok: true;
      readonly xml: MailFile;
      readonly pdf?: MailFile;
      readonly cdr?: MailFile;
    }
  | { readonly base: string; readonly ok: false; readonly message: string };

/** The message read: its sender, subject and documents. */
export interface ReadMessage {
  /** The From header's one address (null when it has none or several). */
  readonly from: string | null;
  readonly subject: string;
  /** The Message-ID header, for the answer's In-Reply-To. */
  readonly messageIdHeader: string | null;
  readonly documents: readonly MailDocument[];
  /** Why the message is refused whole (its documents then empty), or null. */
  readonly refusal: MailRefusedError | null;
}

/** A message refused whole: nothing of it is registered; its sender may be told why (answers.ts). */
export class MailRefusedError extends Error {
  constructor(
    readonly reason: 'TOO_LARGE' | 'UNREADABLE' | 'TOO_MANY_ATTACHMENTS' | 'FORBIDDEN_FILE' | 'BAD_ZIP' | 'NO_XML',
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'MailRefusedError';
  }
}

const MAX_NAME = ZIP_LIMITS.maxNameLength;

/** A file name as the sender's client wrote it, without folders; null for one that cannot be a document's. */
function fileName(attachment: Attachment): string | null {
  const raw = attachment.filename?.split(/[\\/]/).pop()?.trim() ?? '';
  // eslint-disable-next-line no-control-regex
  if (!raw || raw.length > MAX_NAME || /[\u0000-\u001f\u007f]/.test(raw) || raw.startsWith('.')) return null;
  return raw;
}

type Kind = 'xml' | 'pdf' | 'cdrXml' | 'cdrZip' | 'zip';

function kindOf(name: string): { kind: Kind; base: string } | null {
  const match = /^(.+)\.(xml|pdf|zip)$/i.exec(name);
  if (!match) return null;
  const stem = match[1]!;
  const extension = match[2]!.toLowerCase();
  const cdr = /^r-(.+)$/i.exec(stem);
  if (extension === 'pdf') return { kind: 'pdf', base: stem };
  if (extension === 'xml') return cdr ? { kind: 'cdrXml', base: cdr[1]! } : { kind: 'xml', base: stem };
  return cdr ? { kind: 'cdrZip', base: cdr[1]! } : { kind: 'zip', base: stem };
}

/** An inline picture (a signature's logo): not a document, not a threat; left aside. */
const isInlinePicture = (attachment: Attachment) =>
  attachment.contentType.startsWith('image/') && (attachment.contentDisposition === 'inline' || !attachment.filename);

interface Group {
  base: string;
  xml: MailFile[];
  pdf: MailFile[];
  cdr: { name: string; bytes: Buffer; zipped: boolean }[];
}

/**
 * Reads a received e-mail (raw MIME) and its documents: each XML with the PDF of the same base name and SUNAT's CDR
 * (R-<base>.xml or R-<base>.zip), and the documents of a zip attached (zip-documents.ts, with its checks). Refused
 * whole (MailRefusedError) when too large, unreadable, with too many attachments, with a file that is not an XML,
 * a PDF or a zip, with a zip its checks refuse, or without any XML.
 */
export async function readMessage(raw: Buffer): Promise<ReadMessage> {
  if (raw.length > INBOUND_MAIL.maxMessageBytes) {
    // Only its headers are read, to know whom to tell.
    const end = raw.indexOf('\r\n\r\n');
    const headers = await readHeaders(raw.subarray(0, end < 0 || end > 64 * 1024 ? 64 * 1024 : end + 4));
    const refusal = new MailRefusedError(
      'TOO_LARGE',
      `El correo ocupa más de ${INBOUND_MAIL.maxMessageBytes / 1024 / 1024} MB.`,
    );
    return { ...headers, documents: [], refusal };
  }
  try {
    return await readWhole(raw);
  } catch (error) {
    if (!(error instanceof MailRefusedError)) throw error;
    const end = raw.indexOf('\r\n\r\n');
    const headers = await readHeaders(raw.subarray(0, end < 0 || end > 64 * 1024 ? 64 * 1024 : end + 4)).catch(() => ({
      from: null,
      subject: '',
      messageIdHeader: null,
    }));
    return { ...headers, documents: [], refusal: error };
  }
}

type Headers = Pick<ReadMessage, 'from' | 'subject' | 'messageIdHeader'>;

function headersOf(parsed: Awaited<ReturnType<typeof simpleParser>>): Headers {
  const fromValues = parsed.from?.value ?? [];
  const from = fromValues.length === 1 && fromValues[0]!.address ? fromValues[0]!.address.toLowerCase() : null;
  return { from, subject: (parsed.subject ?? '').slice(0, 200), messageIdHeader: parsed.messageId ?? null };
}

async function readHeaders(head: Buffer): Promise<Headers> {
  return headersOf(await simpleParser(head, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true }));
}

async function readWhole(raw: Buffer): Promise<ReadMessage> {
  let parsed;
  try {
    parsed = await simpleParser(raw, {
      skipHtmlToText: true,
      skipTextToHtml: true,
      skipTextLinks: true,
      skipImageLinks: true,
    });
  } catch {
    throw new MailRefusedError('UNREADABLE', 'No se pudo leer el correo.');
  }
  const headers = headersOf(parsed);
  const attachments = parsed.attachments.filter((attachment) => !isInlinePicture(attachment));
  if (attachments.length > INBOUND_MAIL.maxAttachments) {
    throw new MailRefusedError(
      'TOO_MANY_ATTACHMENTS',
      `El correo trae ${attachments.length} adjuntos; el máximo es ${INBOUND_MAIL.maxAttachments}. Envíe varios correos o un ZIP.`,
    );
  }
  const groups = new Map<string, Group>();
  const group = (base: string) => {
    const key = base.toLowerCase();
    let found = groups.get(key);
    if (!found) groups.set(key, (found = { base, xml: [], pdf: [], cdr: [] }));
    return found;
  };
  const documents: MailDocument[] = [];
  for (const attachment of attachments) {
    const name = fileName(attachment);
    const kind = name ? kindOf(name) : null;
    if (!name || !kind) {
      throw new MailRefusedError(
        'FORBIDDEN_FILE',
        `El adjunto «${(attachment.filename ?? 'sin nombre').slice(0, MAX_NAME)}» no es un XML, un PDF ni un ZIP y no se procesa por seguridad.`,
      );
    }
    if (kind.kind === 'zip') {
      documents.push(...(await zipDocuments(name, attachment.content)));
      continue;
    }
    const target = group(kind.base);
    const file = { name, bytes: attachment.content };
    if (kind.kind === 'xml') target.xml.push(file);
    else if (kind.kind === 'pdf') target.pdf.push(file);
    else target.cdr.push({ name, bytes: attachment.content, zipped: kind.kind === 'cdrZip' });
  }
  for (const found of groups.values()) documents.push(await documentOf(found));
  // Only PDFs, or nothing at all: not a document the portal can take (a zip's problems are told one by one).
  const sawXml =
    [...groups.values()].some((found) => found.xml.length > 0) || documents.some((document) => document.ok);
  if (!sawXml) throw new MailRefusedError('NO_XML', 'El correo no trae ningún XML de comprobante.');
  return { ...headers, documents, refusal: null };
}

async function documentOf(group: Group): Promise<MailDocument> {
  const names = [...group.xml, ...group.pdf, ...group.cdr].map((file) => `«${file.name}»`).join(', ');
  if (group.xml.length === 0) {
    return { base: group.base, ok: false, message: `${names}: falta el XML del comprobante con el mismo nombre.` };
  }
  if (group.xml.length > 1 || group.pdf.length > 1 || group.cdr.length > 1) {
    return { base: group.base, ok: false, message: `${names}: hay más de un archivo del mismo tipo con ese nombre.` };
  }
  const xml = group.xml[0]!;
  const pdf = group.pdf[0];
  const cdrFile = group.cdr[0];
  let cdr: MailFile | undefined;
  if (cdrFile && !cdrFile.zipped) cdr = { name: cdrFile.name, bytes: cdrFile.bytes };
  if (cdrFile?.zipped) {
    try {
      cdr = await readCdrZip(cdrFile.bytes, ZIP_LIMITS);
    } catch (error) {
      if (!(error instanceof ZipRefusedError)) throw error;
      return { base: group.base, ok: false, message: `«${cdrFile.name}»: ${error.message}` };
    }
  }
  return { base: group.base, ok: true, xml, ...(pdf ? { pdf } : {}), ...(cdr ? { cdr } : {}) };
}

/** The documents of an attached zip, read with the zip reader's own checks; a zip they refuse refuses the message. */
async function zipDocuments(name: string, bytes: Buffer): Promise<MailDocument[]> {
  let zip;
  try {
    zip = await openZipDocuments(bytes);
  } catch (error) {
    if (!(error instanceof ZipRefusedError)) throw error;
    throw new MailRefusedError('BAD_ZIP', `«${name}»: ${error.message}`);
  }
  const documents: MailDocument[] = [];
  for await (const document of zip) {
    documents.push(
      document.ok
        ? {
            base: document.base,
            ok: true,
            xml: document.xml,
            ...(document.pdf ? { pdf: document.pdf } : {}),
            ...(document.cdr ? { cdr: document.cdr } : {}),
          }
        : { base: document.base, ok: false, message: `«${name}»: ${document.message}` },
    );
  }
  return documents;
}
