import { BadRequestError } from '@portal/shared';

/**
 * Bounds of what the portal reads. A SUNAT document is a few dozen kilobytes and about ten levels deep
 * (the signature is the deepest part); a 5 MB document already holds some ten thousand lines.
 */
export const XML_LIMITS = {
  maxBytes: 5 * 1024 * 1024,
  maxDepth: 64,
  maxElements: 300_000,
} as const;

const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf] as const;
const LESS_THAN = 0x3c;
const XML_WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** The only encodings SUNAT documents come in. windows-1252 is a superset of ISO-8859-1's printable range. */
const ENCODINGS: Record<string, 'utf-8' | 'latin1'> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'us-ascii': 'utf-8',
  ascii: 'utf-8',
  'iso-8859-1': 'latin1',
  'iso8859-1': 'latin1',
  iso_8859_1: 'latin1',
  'iso_8859-1': 'latin1',
  latin1: 'latin1',
  'latin-1': 'latin1',
  'windows-1252': 'latin1',
  cp1252: 'latin1',
};

/** The XML declaration is ASCII in every encoding we accept, so it can be read before decoding. */
const DECLARATION = /^<\?xml\s[^?]*?\bencoding\s*=\s*(["'])([A-Za-z][A-Za-z0-9._-]*)\1/;

/**
 * Any markup declaration ("<!" that opens neither a comment nor a CDATA section): DOCTYPE, ENTITY, ELEMENT,
 * ATTLIST, NOTATION. A UBL document needs none of them, and refusing them all, even inside a comment, means
 * no DTD is ever read and no entity ever expanded, whatever the parser would have done.
 */
const MARKUP_DECLARATION = /<!(?!--|\[CDATA\[)/;

function malformed(): BadRequestError {
  return new BadRequestError('ERROR_XML_MALFORMED');
}

function startsWithBom(bytes: Uint8Array): boolean {
  return BYTE_ORDER_MARK.every((byte, index) => bytes[index] === byte);
}

function encodingOf(bytes: Uint8Array, start: number): 'utf-8' | 'latin1' {
  const head = new TextDecoder('latin1').decode(bytes.subarray(start, start + 512));
  const label = DECLARATION.exec(head)?.[2];
  if (label === undefined) return 'utf-8';
  const encoding = ENCODINGS[label.toLowerCase()];
  if (encoding === undefined) throw malformed();
  return encoding;
}

/**
 * The first line of defence, run before any XML parser sees the input: size, the look of an XML document,
 * the encoding and the absence of any DTD. Returns the decoded text, starting at its first "<".
 *
 * A byte order mark means UTF-8 whatever the declaration says; without one the declaration's encoding
 * applies (UTF-8 when there is none). UTF-8 is decoded strictly: bytes that are not UTF-8 are refused.
 */
export function screenXml(bytes: Uint8Array): string {
  if (bytes.length > XML_LIMITS.maxBytes) {
    throw new BadRequestError('ERROR_XML_TOO_LARGE', { limit: `${XML_LIMITS.maxBytes / (1024 * 1024)} MB` });
  }
  const hasBom = startsWithBom(bytes);
  let start = hasBom ? BYTE_ORDER_MARK.length : 0;
  while (start < bytes.length && XML_WHITESPACE.has(bytes[start]!)) start += 1;
  // Plain text, a PDF, an image or UTF-16 stop here: none starts with "<".
  if (bytes[start] !== LESS_THAN) throw malformed();

  const encoding = hasBom ? 'utf-8' : encodingOf(bytes, start);
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true }).decode(bytes.subarray(start));
  } catch {
    throw malformed();
  }
  if (MARKUP_DECLARATION.test(text)) throw new BadRequestError('ERROR_XML_FORBIDDEN_CONTENT');
  return text;
}
