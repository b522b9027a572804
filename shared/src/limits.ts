/**
 * The bounds of everything the product stores, defined once: the request schemas, the web form's instant
 * feedback and the UBL reader all use these numbers. docs/limits.md explains each one and where it comes from.
 */
export const TEXT_LIMITS = {
  /**
   * Razón social or name of a party (supplier, customer). SUNAT's UBL 2.1 guides allow an..1500 for
   * cbc:RegistrationName (an..100 in the UBL 2.0 annexes of R.S. 097-2012/SUNAT).
   */
  partyName: 1500,
  /** An identity document number of a party (catálogo 06: RUC 11, DNI 8, carné de extranjería, pasaporte…). */
  partyTaxId: 15,
  /** Series and correlative as written in cbc:ID (SUNAT: an..13, e.g. F001-12345678), with some room for spaces. */
  documentId: 30,
  /** A SAP document number (OC, HES, MIGO) typed by a manager or read from the XML. */
  sapDocumentId: 30,
  /** Free notes typed with a document. */
  notes: 1000,
  /** A rejection reason, shown in the invoice's history and in the supplier's notification. */
  reason: 1000,
  /** An identifier of reference data (employee, office, location) or a user filter value. */
  referenceId: 128,
  /** A key of an uploaded object in the documents bucket. */
  objectKey: 1024,
  /** Short codes read from an XML: UBL version, type codes, installment ids. */
  code: 20,
  /** A note's reason in the issuer's words (cac:DiscrepancyResponse/cbc:Description: an..500 in SUNAT's UBL 2.1 guides). */
  noteReasonDescription: 500,
  /** A search typed in a list or the header (a name, RUC or e-mail prefix). */
  search: 100,
  /** A person's first or last name. */
  personName: 100,
  /** An e-mail address (RFC 5321's path limit). */
  email: 254,
  /** The name of an uploaded file, as the browser gives it. */
  fileName: 200,
  /** A MIME type as the browser gives it. */
  contentType: 100,
  /** A message of an invoice's conversation, after trimming and stripping control characters. */
  message: 2000,
  /** What a message body may carry before it is cleaned: more is refused without reading it. */
  messageRaw: 8000,
  /** A page cursor handed out by the API. */
  cursor: 2048,
  /** A cursor of the user listings, which wraps Cognito's PaginationToken. */
  userCursor: 4096,
} as const;

export const COUNT_LIMITS = {
  /** Purchase orders of one invoice: those of the XML, and those a manager types (one transaction per update). */
  purchaseOrders: 20,
  /** Installments (cuotas) of a credit sale read from an XML. */
  installments: 120,
  /** Due dates read from an XML (cbc:DueDate, payment means, installments). */
  dueDates: 130,
  /** Document-level discounts or charges (cac:AllowanceCharge) read from an XML: SUNAT's codes are a few dozen. */
  allowanceCharges: 20,
  /** Anticipos deducted (cac:PrepaidPayment) read from an XML. */
  prepayments: 20,
  /**
   * Notes (credit and debit) of one original: its intake links them all in one transaction (one update each), which
   * must stay within DynamoDB's 100 items with the invoice, its search items and counters.
   */
  notesPerOriginal: 20,
  /** Files attached to one message of an invoice's conversation. */
  messageAttachments: 3,
  /** Messages of one invoice's conversation: the detail reads them all in one page. */
  messagesPerInvoice: 200,
} as const;

/**
 * Amounts: at most 9,999,999,999.99 (ten integer digits, two decimals; SUNAT's own format allows twelve).
 * JavaScript numbers hold every such amount to the exact cent (cents stay far below 2^53), and DynamoDB
 * stores them as the decimal text JavaScript writes, so what is accepted is kept exact.
 */
export const MAX_AMOUNT = 9_999_999_999.99;

/** The amount in es-PE form for messages: 9,999,999,999.99. */
export const MAX_AMOUNT_TEXT = '9,999,999,999.99';

/**
 * The oldest issue date accepted: SUNAT's first electronic invoicing system (SEE-SOL, R.S. 188-2010/SUNAT)
 * began in 2010; no electronic document of a supplier is older.
 */
export const ISSUE_DATE_FLOOR = '2010-01-01';

/** Lima keeps UTC-5 all year (no daylight saving time). */
const LIMA_OFFSET_MS = -5 * 60 * 60 * 1000;

/** Today's calendar date in Lima (yyyy-mm-dd) at `now`. */
export function todayInLima(now: Date = new Date()): string {
  return new Date(now.getTime() + LIMA_OFFSET_MS).toISOString().slice(0, 10);
}

/** Where an issue date falls against the accepted range: in range, after today in Lima, or before the floor. */
export function issueDateProblem(date: string, now: Date = new Date()): 'FUTURE' | 'TOO_OLD' | null {
  if (date > todayInLima(now)) return 'FUTURE';
  if (date < ISSUE_DATE_FLOOR) return 'TOO_OLD';
  return null;
}

/** dd/mm/yyyy, as a person in Peru reads a date. */
export function peruvianDate(date: string): string {
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year}`;
}
