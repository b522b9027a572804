import {
  CreateInvoiceWithoutXmlBody,
  DEFAULT_CURRENCY,
  checkInvoiceCode,
  isNoteType,
  isValidRuc,
  parseTypedDate,
  type Currency,
  type InvoiceType,
  type NoteOriginalType,
  type RouteBodyInput,
  type routes,
} from '@portal/shared';
import { invoicesMessages } from './messages';
import { contentTypeFor, isFileRejection } from './upload-file';

type Body = RouteBodyInput<typeof routes.createInvoiceWithoutXml>;

/** What the 'Nuevo comprobante' form holds: text as typed, the PDF as chosen. */
export interface NewInvoiceForm {
  readonly prefixId: string;
  readonly numericId: string;
  readonly type: InvoiceType;
  readonly clientTaxId: string;
  readonly currency: Currency;
  readonly taxAmount: string;
  /** As typed: dd/mm/aa or dd/mm/aaaa (spec §9); the body carries the ISO date it reads as. */
  readonly issueDate: string;
  readonly amount: string;
  readonly supplierTaxId: string;
  readonly supplierName: string;
  readonly notes: string;
  readonly pdf: readonly File[];
  /** A note's original: its type, series and correlative as typed. */
  readonly originalType: NoteOriginalType;
  readonly originalPrefixId: string;
  readonly originalNumericId: string;
  /** A note's reason: its catálogo 09/10 code, and the issuer's words. */
  readonly noteReasonCode: string;
  readonly noteReasonDescription: string;
}

export type FieldName = keyof typeof invoicesMessages.create.errors;
export type FieldErrors = Partial<Record<FieldName, string>>;

export function emptyForm(defaults: Partial<NewInvoiceForm> = {}): NewInvoiceForm {
  return {
    prefixId: '',
    numericId: '',
    type: 'FACTURA',
    clientTaxId: '',
    currency: DEFAULT_CURRENCY,
    taxAmount: '',
    issueDate: '',
    amount: '',
    supplierTaxId: '',
    supplierName: '',
    notes: '',
    pdf: [],
    originalType: 'FACTURA',
    originalPrefixId: '',
    originalNumericId: '',
    noteReasonCode: '',
    noteReasonDescription: '',
    ...defaults,
  };
}

/** A money amount as typed ('1180.50', '1 180,50' is not a number here): NaN when it is not one. */
function amountOf(typed: string): number {
  const compact = typed.replace(/\s/g, '');
  return /^\d+(\.\d{1,2})?$/.test(compact) ? Number(compact) : Number.NaN;
}

const PDF_PLACEHOLDER = 'pdf-elegido';

/** The issue date typed, as the ISO date the API takes, or the Spanish reason it is not a date. */
export function issueDateOf(typed: string): { date: string } | { error: string } {
  const parsed = parseTypedDate(typed);
  if ('date' in parsed) return parsed;
  return { error: invoicesMessages.create.issueDateTyped[parsed.problem] };
}

/**
 * Checks the form field by field before anything is sent: the typed issue date read as dd/mm/aa, the
 * route's own body schema
 * (CreateInvoiceWithoutXmlBody, the one the API validates with), then what the API checks beyond it
 * (the series allowed for the type, the RUC's check digit, IGV within the amount, the PDF's type and
 * size). Each field gets its Spanish message. The PDF is uploaded only once all of this holds, so the
 * body is checked with a stand-in for its key.
 */
export function validateForm(form: NewInvoiceForm): { errors: FieldErrors; body: Omit<Body, 'pdfUrl'> | null } {
  const messages = invoicesMessages.create.errors;
  const issueDate = issueDateOf(form.issueDate);
  const draft: Body = {
    prefixId: form.prefixId.trim().toUpperCase(),
    numericId: form.numericId.trim(),
    type: form.type,
    clientTaxId: form.clientTaxId,
    supplierTaxId: form.supplierTaxId.trim(),
    supplierName: form.supplierName.trim(),
    currency: form.currency,
    amount: amountOf(form.amount),
    taxAmount: amountOf(form.taxAmount),
    issueDate: 'date' in issueDate ? issueDate.date : '',
    pdfUrl: form.pdf.length > 0 ? PDF_PLACEHOLDER : '',
    ...(form.notes.trim() ? { notes: form.notes.trim() } : {}),
    // A note names its original and its reason; the other documents send neither.
    ...(isNoteType(form.type)
      ? {
          billingReference: {
            type: form.originalType,
            prefixId: form.originalPrefixId.trim().toUpperCase(),
            numericId: form.originalNumericId.trim(),
          },
          ...(form.noteReasonCode ? { noteReasonCode: form.noteReasonCode } : {}),
          ...(form.noteReasonDescription.trim() ? { noteReasonDescription: form.noteReasonDescription.trim() } : {}),
        }
      : {}),
  };

  const errors: FieldErrors = {};
  // An empty field asks for the date as the range message does; a typed one says what is wrong with it.
  if ('error' in issueDate && form.issueDate.trim()) errors.issueDate = issueDate.error;
  const parsed = CreateInvoiceWithoutXmlBody.safeParse(draft);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (typeof field === 'string' && field in messages && !errors[field as FieldName]) {
        errors[field as FieldName] = messages[field as FieldName];
      }
    }
  }
  if (!errors.prefixId && !errors.numericId && !checkInvoiceCode(draft.type, draft.prefixId, draft.numericId)) {
    if (Number(draft.numericId) === 0) errors.numericId = messages.numericId;
    else errors.prefixId = messages.prefixIdForType;
  }
  if (!errors.supplierTaxId && !isValidRuc(draft.supplierTaxId)) errors.supplierTaxId = messages.supplierTaxId;
  if (isNoteType(draft.type)) {
    const reference = draft.billingReference;
    if (
      !errors.billingReference &&
      reference &&
      !checkInvoiceCode(reference.type, reference.prefixId, reference.numericId)
    ) {
      errors.billingReference =
        /^\d{1,8}$/.test(reference.numericId) && Number(reference.numericId) > 0
          ? messages.originalPrefixForType
          : messages.billingReference;
    }
    if (!draft.noteReasonCode) errors.noteReasonCode = messages.noteReasonCode;
  }
  // Optional for the API (a known RUC keeps the directory's name), but the form always shows one.
  if (!errors.supplierName && !draft.supplierName) errors.supplierName = messages.supplierName;
  if (!errors.amount && !errors.taxAmount && draft.taxAmount > draft.amount) errors.taxAmount = messages.taxAboveAmount;
  const pdf = form.pdf[0];
  if (pdf && !errors.pdfUrl) {
    try {
      contentTypeFor(pdf, 'INVOICE_PDF');
    } catch (error) {
      if (isFileRejection(error)) errors.pdfUrl = error.message;
      else throw error;
    }
  }

  if (Object.keys(errors).length > 0 || !parsed.success) return { errors, body: null };
  const { pdfUrl: _placeholder, ...body } = draft;
  return { errors, body };
}
