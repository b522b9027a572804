import {
  BadRequestError,
  SUNAT_RUC,
  cdrIdentityMismatches,
  cdrVerdictOf,
  isValidRuc,
  type CdrEvidence,
  type InvoiceForCdr,
} from '@portal/shared';
import { NS } from './namespaces.js';
import { screenXml } from './screen.js';
import { childOf, childrenOf, pathOf, readXmlTree, textOf, type XmlElement } from './xml-tree.js';
import { CDR_LIMITS } from './cdr-limits.js';

/*
 * SUNAT's Constancia de Recepción (CDR) (docs/ap-cdr.md): a UBL ApplicationResponse, delivered to the
 * issuer in R-<RUC>-<tipo>-<serie>-<número>.zip holding R-….xml. Two layouts are in circulation:
 *
 * - SUNAT's own (UBL 2.0, Manual del programador, anexo "Constancia de Recepción"): cac:SenderParty is SUNAT
 *   (PartyIdentification/ID 20131312955), cac:ReceiverParty the issuer's RUC; cac:DocumentResponse holds
 *   cac:Response (cbc:ReferenceID, cbc:ResponseCode, cbc:Description), cac:DocumentReference/cbc:ID (SERIE-NÚMERO)
 *   and cac:RecipientParty, the document's acquirer as "<catálogo 06 type>-<number>", e.g. 6-20100070970.
 *   Observations are root cbc:Note elements "4287 - text" beside response code 0.
 * - The UBL 2.1 layout of the OSEs (and of SUNAT's newer services): parties as PartyLegalEntity/CompanyID with a
 *   schemeID, cac:DocumentResponse/cac:IssuerParty the issuer and cac:RecipientParty the acquirer,
 *   cac:DocumentReference with cbc:DocumentTypeCode (catálogo 01), observations as cac:Response/cac:Status
 *   (cbc:StatusReasonCode, cbc:StatusReason).
 *
 * The signature is not verified: the CDR is evidence the supplier supplies and never replaces SUNAT's validity
 * check (shared/src/rules/cdr.ts). The same screen as for documents runs first: size, no DTD, no entity.
 */

export { CDR_LIMITS };

export interface CdrNote {
  /** SUNAT's return code of the observation (4000 and above), when the CDR gives one. */
  readonly code: string | null;
  readonly message: string;
}

export interface ParsedCdr extends CdrEvidence {
  /** SUNAT's return code, as written without leading zeros: '0', '2017', '4287'. */
  readonly responseCode: string;
  readonly description: string;
  /** The document the CDR answers, as "SERIE-NÚMERO" and in its parts, as written. */
  readonly documentId: string;
  readonly prefixId: string;
  readonly numericId: string;
  readonly documentTypeCode: string | null;
  /** RUC of the document's issuer (the supplier). */
  readonly issuerTaxId: string;
  readonly recipient: { readonly taxId: string; readonly taxIdType: string | null } | null;
  /** RUC of who issued the CDR: SUNAT, or an OSE the caller trusts. */
  readonly senderTaxId: string;
  /** yyyy-mm-dd: cbc:ResponseDate, or cbc:IssueDate when absent. */
  readonly responseDate: string;
  readonly notes: readonly CdrNote[];
}

export interface ParseCdrOptions {
  /**
   * RUCs whose CDRs are read besides SUNAT's: an Operador de Servicios Electrónicos (OSE) issues the CDR of the
   * documents it validates. Empty by default: until the portal keeps SUNAT's padrón of OSEs, only SUNAT's are read.
   */
  readonly trustedSenders?: readonly string[];
}

type Step = [uri: string, local: string];
const cac = (local: string): Step => [NS.cac, local];
const cbc = (local: string): Step => [NS.cbc, local];

/** The Spanish names of the fields, as a person reads them in ERROR_CDR_INVALID_FIELD. */
const FIELD = {
  responseCode: 'código de respuesta',
  description: 'descripción de la respuesta',
  documentId: 'serie y número del comprobante',
  documentTypeCode: 'tipo de comprobante',
  issuer: 'RUC del emisor del comprobante',
  recipient: 'documento del adquirente',
  sender: 'emisor de la constancia',
  responseDate: 'fecha de respuesta',
  note: 'observación',
} as const;

const SERIES_AND_NUMBER = /^([A-Za-z0-9]{1,4})-(\d{1,8})$/;
/** "4287 - El precio unitario…", as SUNAT writes an observation in cbc:Note. */
const CODED_NOTE = /^(\d{4})\s*-\s*(.+)$/s;

function invalid(field: string): BadRequestError {
  return new BadRequestError('ERROR_CDR_INVALID_FIELD', { field });
}

function bounded(value: string | undefined, field: string): string | undefined {
  if (value !== undefined && value.length > CDR_LIMITS.maxText) throw invalid(field);
  return value;
}

function required<T>(value: T | undefined, field: string): T {
  if (value === undefined) throw invalid(field);
  return value;
}

/** Only the signature is skipped: it is counted and depth-checked, never kept. */
function isSignature(uri: string, local: string): boolean {
  return uri === NS.ext && local === 'UBLExtensions';
}

/** A party's identifier in either layout: PartyIdentification/ID or PartyLegalEntity/CompanyID (with schemeID). */
function partyId(party: XmlElement | undefined): { id: string; scheme: string | null } | undefined {
  if (!party) return undefined;
  const identification = pathOf(party, cac('PartyIdentification'), cbc('ID'));
  const legal = pathOf(party, cac('PartyLegalEntity'), cbc('CompanyID'));
  const element = identification ?? legal;
  const id = textOf(element);
  if (id === undefined) return undefined;
  return { id, scheme: element?.attributes.get('schemeID')?.trim() || null };
}

function rucOf(party: XmlElement | undefined, field: string): string {
  const id = required(partyId(party), field).id;
  // SUNAT's 2.0 layout sometimes prefixes the catálogo 06 type: "6-20456178325".
  const ruc = /^6-(\d{11})$/.exec(id)?.[1] ?? id;
  if (!isValidRuc(ruc)) throw invalid(field);
  return ruc;
}

/** The acquirer: "6-20100070970" (2.0) or CompanyID schemeID="6" (2.1); null when the CDR does not name one. */
function readRecipient(response: XmlElement): ParsedCdr['recipient'] {
  const found = partyId(childOf(response, NS.cac, 'RecipientParty'));
  if (!found) return null;
  const prefixed = /^([0-9A-Z])-(.+)$/.exec(found.id);
  const taxId = bounded(prefixed?.[2] ?? found.id, FIELD.recipient)!;
  const taxIdType = prefixed?.[1] ?? found.scheme;
  if (taxIdType === '6' && !isValidRuc(taxId)) throw invalid(FIELD.recipient);
  return { taxId, taxIdType };
}

/** xs:date as yyyy-mm-dd; a time zone suffix is dropped. */
function dateOf(element: XmlElement | undefined): string | undefined {
  const raw = textOf(element);
  if (raw === undefined) return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:Z|[+-]\d{2}:\d{2})?$/.exec(raw);
  if (!match) throw invalid(FIELD.responseDate);
  const [, year, month, day] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (date.getUTCMonth() !== Number(month) - 1 || date.getUTCDate() !== Number(day)) throw invalid(FIELD.responseDate);
  return `${year}-${month}-${day}`;
}

function readNotes(root: XmlElement, response: XmlElement): CdrNote[] {
  const notes: CdrNote[] = [];
  const add = (note: CdrNote) => {
    notes.push(note);
    if (notes.length > CDR_LIMITS.maxNotes) throw invalid(FIELD.note);
  };
  for (const element of childrenOf(root, NS.cbc, 'Note')) {
    const text = bounded(textOf(element), FIELD.note);
    if (text === undefined) continue;
    const coded = CODED_NOTE.exec(text);
    add(coded ? { code: coded[1]!, message: coded[2]!.trim() } : { code: null, message: text });
  }
  for (const status of childrenOf(response, NS.cac, 'Status')) {
    const code = bounded(textOf(childOf(status, NS.cbc, 'StatusReasonCode')), FIELD.note);
    const message = bounded(textOf(childOf(status, NS.cbc, 'StatusReason')), FIELD.note);
    if (message === undefined && code === undefined) continue;
    add({ code: code ?? null, message: message ?? '' });
  }
  return notes;
}

/**
 * Reads a CDR from the bytes of its XML (R-….xml, out of its zip). Synchronous and pure.
 *
 * Throws BadRequestError: the screen's ERROR_XML_MALFORMED, _FORBIDDEN_CONTENT (any DTD or entity declaration),
 * _TOO_LARGE, _TOO_DEEP; ERROR_CDR_INVALID when the XML is not an ApplicationResponse; ERROR_CDR_INVALID_FIELD
 * {field} for a field missing or out of shape (a response code that is no verdict among them); ERROR_CDR_NOT_SUNAT
 * {sender} when neither SUNAT nor a trusted OSE sent it.
 */
export function parseCdr(bytes: Uint8Array, options: ParseCdrOptions = {}): ParsedCdr {
  if (bytes.length > CDR_LIMITS.maxBytes) {
    throw new BadRequestError('ERROR_XML_TOO_LARGE', { limit: `${CDR_LIMITS.maxBytes / 1024} KB` });
  }
  const root = readXmlTree(screenXml(bytes), {
    maxDepth: CDR_LIMITS.maxDepth,
    maxElements: CDR_LIMITS.maxElements,
    prune: isSignature,
  });
  if (root.uri !== NS.applicationResponse || root.local !== 'ApplicationResponse') {
    throw new BadRequestError('ERROR_CDR_INVALID');
  }

  const sender = rucOf(childOf(root, NS.cac, 'SenderParty'), FIELD.sender);
  if (sender !== SUNAT_RUC && !(options.trustedSenders ?? []).includes(sender)) {
    throw new BadRequestError('ERROR_CDR_NOT_SUNAT', { sender });
  }

  const documentResponse = required(childOf(root, NS.cac, 'DocumentResponse'), FIELD.responseCode);
  const response = required(childOf(documentResponse, NS.cac, 'Response'), FIELD.responseCode);
  const rawCode = required(textOf(childOf(response, NS.cbc, 'ResponseCode')), FIELD.responseCode);
  if (!/^\d{1,4}$/.test(rawCode)) throw invalid(FIELD.responseCode);
  const responseCode = String(Number(rawCode));
  const notes = readNotes(root, response);
  // A code that is no verdict on the document (an exception, 0100–1999: the submission failed) is no CDR's.
  if (cdrVerdictOf(responseCode, notes.length) === null) throw invalid(FIELD.responseCode);

  const reference = childOf(documentResponse, NS.cac, 'DocumentReference');
  const documentId = required(
    bounded(
      textOf(childOf(reference, NS.cbc, 'ID')) ?? textOf(childOf(response, NS.cbc, 'ReferenceID')),
      FIELD.documentId,
    ),
    FIELD.documentId,
  );
  const parts = SERIES_AND_NUMBER.exec(documentId);
  if (!parts) throw invalid(FIELD.documentId);
  const documentTypeCode = textOf(childOf(reference, NS.cbc, 'DocumentTypeCode')) ?? null;
  if (documentTypeCode !== null && !/^\d{2}$/.test(documentTypeCode)) throw invalid(FIELD.documentTypeCode);

  // The issuer: cac:IssuerParty in the 2.1 layout, else the party the CDR was addressed to.
  const issuerTaxId = rucOf(
    childOf(documentResponse, NS.cac, 'IssuerParty') ?? childOf(root, NS.cac, 'ReceiverParty'),
    FIELD.issuer,
  );

  return {
    responseCode,
    description: required(
      bounded(textOf(childOf(response, NS.cbc, 'Description')), FIELD.description),
      FIELD.description,
    ),
    documentId,
    prefixId: parts[1]!,
    numericId: parts[2]!,
    documentTypeCode,
    issuerTaxId,
    recipient: readRecipient(documentResponse),
    senderTaxId: sender,
    responseDate: required(
      dateOf(childOf(root, NS.cbc, 'ResponseDate')) ?? dateOf(childOf(root, NS.cbc, 'IssueDate')),
      FIELD.responseDate,
    ),
    notes,
  };
}

/**
 * Refuses a CDR that answers another document than the one it came with (a zip's R-….zip beside the wrong XML, an
 * e-mail's attachments mixed up): its series and number, type or issuer differ. ERROR_CDR_OTHER_DOCUMENT.
 */
export function assertCdrOfDocument(cdr: ParsedCdr, document: InvoiceForCdr): void {
  const mismatches = cdrIdentityMismatches(cdr, document).filter((reason) => reason.kind !== 'OTHER_CUSTOMER');
  if (mismatches.length > 0) {
    throw new BadRequestError('ERROR_CDR_OTHER_DOCUMENT', {
      cdrDocument: cdr.documentId,
      cdrIssuer: cdr.issuerTaxId,
      document: `${document.prefixId}-${document.numericId}`,
      issuer: document.supplierId,
    });
  }
}
