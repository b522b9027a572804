import type { ParsedDocument } from './parsed-document.js';
import { isUnreadContent, readSunatDocument } from './read-document.js';
import { XML_LIMITS, screenXml } from './screen.js';
import { readXmlTree } from './xml-tree.js';

/**
 * Reads a SUNAT electronic document (factura, boleta, nota de crédito, nota de débito in UBL 2.1 or 2.0,
 * recibo por honorarios electrónico) from the bytes of its XML file. Synchronous and pure: no I/O.
 *
 * 1. Screen the bytes before any parsing: at most 5 MB, starts with "<", UTF-8 or ISO-8859-1 as declared,
 *    no DOCTYPE or other markup declaration (so no DTD and no entity expansion).
 * 2. Parse with saxes, strict and namespace-aware, refusing past 64 levels or 300,000 elements as each tag
 *    opens; the signature and the invoice lines (but for their price types) are counted but not kept.
 * 3. Read the fields by namespace URI and local name, and check that the amounts add up as SUNAT requires.
 *
 * Throws BadRequestError with ERROR_XML_MALFORMED, _FORBIDDEN_CONTENT, _TOO_LARGE, _TOO_DEEP,
 * _UNSUPPORTED_DOCUMENT, _MISSING_FIELD {field}, _INVALID_FIELD {field}, _UNSUPPORTED_CURRENCY {currency},
 * _NEGATIVE_AMOUNT {field, amount}, _INCONSISTENT_AMOUNTS {field, stated, computed} or _ZERO_TOTAL_UNEXPLAINED.
 */
export function parseSunatDocument(bytes: Uint8Array): ParsedDocument {
  const text = screenXml(bytes);
  const root = readXmlTree(text, {
    maxDepth: XML_LIMITS.maxDepth,
    maxElements: XML_LIMITS.maxElements,
    prune: isUnreadContent,
  });
  return readSunatDocument(root);
}
