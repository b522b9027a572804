import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  INVOICE_STATUS_LABELS,
  ISSUE_DATE_FLOOR,
  MAX_AMOUNT,
  MAX_AMOUNT_TEXT,
  isValidRuc,
  issueDateProblem,
  peruvianDate,
  todayInLima,
  notificationAbout,
  type Client,
  type Currency,
  type Invoice,
  type InvoiceType,
  type PaymentTerms,
  type RouteBody,
  type Routes,
  type SunatValidationMessage,
} from '@portal/shared';
import { outgoingItem, outgoingMessage, type Outgoing } from '../repositories/outgoing.js';
import { uploadUseItems } from '../repositories/upload-uses.js';
import { acquirerConformityAtIntake } from './acquirer-conformity.js';
import type { Caller } from '../http/caller.js';
import type { IntakeStore } from '../repositories/intake-store.js';
import type { SupplierProfileRepository } from '../repositories/supplier-profiles.js';

/** What an electronic document says, whether read from its XML or typed in the form with its PDF. */
export interface IncomingDocument {
  readonly type: InvoiceType;
  readonly prefixId: string;
  readonly numericId: string;
  readonly issueDate: string;
  readonly currency: Currency;
  readonly supplier: { readonly taxId: string; readonly name: string };
  readonly customerTaxId: string;
  readonly taxAmount: number;
  readonly amount: number;
  readonly purchaseOrders: readonly string[];
  readonly notes: string | null;
  /** Forma de pago and cuotas, when the document states them (the XML since R.S. 193-2020/SUNAT). */
  readonly paymentTerms?: PaymentTerms | null;
}

export type UploadPurpose = 'INVOICE_XML' | 'INVOICE_PDF';

export interface IntakeDeps {
  /** Checks an uploaded object (tenant, size, type by its bytes); XML comes back with its bytes. */
  readonly verifyUpload: (
    key: string,
    purpose: UploadPurpose,
    caller: Caller,
  ) => Promise<{ key: string; bytes?: Uint8Array }>;
  /**
   * Deletes an upload the intake verified and then refused (unless an invoice uses it), as every
   * refused upload is: the bucket keeps only files that invoices name.
   */
  readonly discardUpload: (key: string, reason: string, code: string) => Promise<void>;
  /** Reads a SUNAT electronic document (hardened UBL parser). */
  readonly parseDocument: (bytes: Uint8Array) => Promise<IncomingDocument>;
  /** The series-number format rule. */
  readonly checkInvoiceCode: (type: InvoiceType, prefixId: string, numericId: string) => boolean;
  readonly clients: { get(taxId: string): Promise<Client | null> };
  /** The supplier directory: the business name a RUC is known by. */
  readonly profiles: Pick<SupplierProfileRepository, 'getMany'>;
  readonly store: IntakeStore;
  /** Sends the messages the intake committed with the invoice (SUNAT validation, notification). */
  readonly outgoing: Pick<Outgoing, 'deliver'>;
  readonly clock: () => Date;
}

/**
 * Document intake (POST /invoices and POST /invoices/without-xml). Steps:
 * 1. the uploaded file is what it claims to be (and the XML is read);
 * 2. the supplier's RUC carries its check digit and is the caller's (an admin may submit for anyone),
 *    the customer is one of the group's companies, the series-number has SUNAT's format;
 * 3. the same supplier, type, series and correlative (compared as integers) is not there already,
 *    unless it was rejected with retry allowed, which the new one replaces;
 * 4. one transaction stores it PENDING with certStatus PENDING, then SUNAT validation is queued
 *    and the people concerned are told.
 */
export function makeIntake(deps: IntakeDeps) {
  async function register(
    caller: Caller,
    document: IncomingDocument,
    files: { xmlUrl: string | null; pdfUrl: string | null },
    progress: { writing: boolean },
  ) {
    if (!isValidRuc(document.supplier.taxId))
      throw new BadRequestError('ERROR_INVALID_RUC', { ruc: document.supplier.taxId });
    if (caller.level !== 'ADMIN' && !caller.taxIds.includes(document.supplier.taxId)) {
      throw new ForbiddenError('ERROR_INVOICE_SUPPLIER_NOT_CALLER', { ruc: document.supplier.taxId });
    }
    const client = await deps.clients.get(document.customerTaxId);
    if (!client) throw new BadRequestError('ERROR_CLIENT_NOT_FOUND', { companyId: document.customerTaxId });
    if (
      !/^\d{1,8}$/.test(document.numericId) ||
      !deps.checkInvoiceCode(document.type, document.prefixId, document.numericId)
    ) {
      throw new BadRequestError('ERROR_INVOICE_ID_WITH_INVALID_FORMAT', {
        prefixId: document.prefixId,
        numericId: document.numericId,
      });
    }
    if (!(document.amount > 0) || document.taxAmount < 0 || document.taxAmount > document.amount) {
      throw new BadRequestError('ERROR_INVALID_PARAMETER', {
        parameter: 'amount',
        reason: 'el monto debe ser positivo y el IGV no puede superarlo',
      });
    }
    for (const [field, amount] of [
      ['importe total', document.amount],
      ['monto del IGV', document.taxAmount],
    ] as const) {
      if (amount > MAX_AMOUNT) {
        throw new BadRequestError('ERROR_INVOICE_AMOUNT_OUT_OF_RANGE', { field, limit: MAX_AMOUNT_TEXT });
      }
    }
    const dateProblem = issueDateProblem(document.issueDate, deps.clock());
    if (dateProblem === 'FUTURE') {
      throw new BadRequestError('ERROR_INVOICE_ISSUE_DATE_IN_FUTURE', {
        date: peruvianDate(document.issueDate),
        today: peruvianDate(todayInLima(deps.clock())),
      });
    }
    if (dateProblem === 'TOO_OLD') {
      throw new BadRequestError('ERROR_INVOICE_ISSUE_DATE_TOO_OLD', {
        date: peruvianDate(document.issueDate),
        floor: peruvianDate(ISSUE_DATE_FLOOR),
      });
    }

    // Correlatives compare as integers: F001-00000123 and F001-123 are the same document.
    const numericId = String(Number(document.numericId));
    const id = `${document.prefixId}-${numericId}`;
    const existing = await deps.store.existing(document.supplier.taxId, document.type, id);
    const retryAllowed = existing?.status === 'REJECTED' && existing.disapprovedWithoutRejection;
    if (existing && !retryAllowed) throw new ConflictError('ERROR_INVOICE_ALREADY_EXISTS', { invoiceId: id });

    const now = deps.clock().toISOString();
    const by = caller.email || caller.sub;
    const invoice: Invoice = {
      id,
      prefixId: document.prefixId,
      numericId,
      type: document.type,
      status: 'PENDING',
      statusMessage: null,
      certStatus: 'PENDING',
      approved: false,
      supplierId: document.supplier.taxId,
      supplierName: document.supplier.name,
      client: client.taxId,
      clientName: client.name,
      responsible: null,
      officeId: null,
      locationId: null,
      operationType: null,
      currency: document.currency,
      amount: document.amount,
      taxAmount: document.taxAmount,
      serviceSheets: [],
      materialDocs: [],
      purchaseOrders: [...document.purchaseOrders],
      attachments: [],
      issuedAt: document.issueDate,
      receivedAt: now,
      scheduledAt: null,
      paidAt: null,
      xmlUrl: files.xmlUrl,
      pdfUrl: files.pdfUrl,
      disapprovedWithoutRejection: false,
      notes: document.notes,
      // A resubmission continues the history of the rejection it replaces: nothing anyone did is lost.
      statusHistory: [
        ...(retryAllowed && existing ? existing.statusHistory : []),
        {
          status: 'PENDING',
          title: INVOICE_STATUS_LABELS.PENDING,
          additionalMessage: retryAllowed ? 'Comprobante enviado nuevamente tras el rechazo' : 'Comprobante recibido',
          date: now,
          by,
        },
      ],
      paymentTerms: document.paymentTerms ?? null,
    };
    // The Ley 29623 conformity clock, when the document runs one; its record is written with the invoice.
    const conformity = acquirerConformityAtIntake(invoice, retryAllowed ? existing : null, deps.clock());
    invoice.acquirerConformity = conformity.conformity;
    const sunat: SunatValidationMessage = {
      supplierId: invoice.supplierId,
      invoiceType: invoice.type,
      invoiceId: invoice.id,
    };
    const received = notificationAbout('INVOICE_RECEIVED', invoice, null, new Date(now));
    // Committed with the invoice, so SUNAT validation is never lost; sent right after, or by the relay.
    const messages = [
      outgoingMessage('sunatValidation', sunat, deps.clock()),
      outgoingMessage('notifications', received, deps.clock()),
    ];
    // The files it names are recorded with it: a later refusal of the same key leaves them alone.
    const uses = uploadUseItems([files.xmlUrl, files.pdfUrl], invoice, deps.clock());
    progress.writing = true;
    await deps.store.create(invoice, retryAllowed ? existing : null, [
      ...messages.map(outgoingItem),
      ...uses,
      ...conformity.items,
    ]);
    await deps.outgoing.deliver(messages);
    return invoice;
  }

  /**
   * Runs the checks after the upload's own: a refusal (any 4xx before the write) deletes the upload. A
   * failure of the write itself keeps it: the same submission may be retried, or a concurrent one
   * holding the same key may be the one being stored.
   */
  async function refusingUpload(key: string, run: (progress: { writing: boolean }) => Promise<Invoice>) {
    const progress = { writing: false };
    try {
      return await run(progress);
    } catch (error) {
      const status = (error as { statusCode?: unknown }).statusCode;
      if (!progress.writing && typeof status === 'number' && status >= 400 && status < 500) {
        await deps.discardUpload(key, (error as Error).message, String((error as { code?: unknown }).code));
      }
      throw error;
    }
  }

  return {
    async fromXml(caller: Caller, body: RouteBody<Routes['createInvoiceFromXml']>): Promise<Invoice> {
      const upload = await deps.verifyUpload(body.url, 'INVOICE_XML', caller);
      return refusingUpload(upload.key, async (progress) => {
        const document = await deps.parseDocument(upload.bytes ?? new Uint8Array());
        return register(caller, document, { xmlUrl: upload.key, pdfUrl: null }, progress);
      });
    },

    async withoutXml(caller: Caller, body: RouteBody<Routes['createInvoiceWithoutXml']>): Promise<Invoice> {
      const upload = await deps.verifyUpload(body.pdfUrl, 'INVOICE_PDF', caller);
      return refusingUpload(upload.key, async (progress) => {
        // The business name is the one the directory knows the RUC by; a typed one only names a RUC it does not know.
        const known = await deps.profiles.getMany([body.supplierTaxId]);
        const supplierName = known.get(body.supplierTaxId)?.name ?? body.supplierName;
        if (!supplierName) throw new BadRequestError('ERROR_MISSING_PARAMETER', { parameter: 'supplierName' });
        return register(
          caller,
          {
            type: body.type,
            prefixId: body.prefixId,
            numericId: body.numericId,
            issueDate: body.issueDate,
            currency: body.currency,
            supplier: { taxId: body.supplierTaxId, name: supplierName },
            customerTaxId: body.clientTaxId,
            taxAmount: body.taxAmount,
            amount: body.amount,
            purchaseOrders: [],
            notes: body.notes ?? null,
          },
          { xmlUrl: null, pdfUrl: upload.key },
          progress,
        );
      });
    },
  };
}

export type Intake = ReturnType<typeof makeIntake>;
