import { conversationAfter, sideOf, ConflictError, NotFoundError } from '@portal/shared';
import { MOCK_CLIENTS, MOCK_EMPLOYEES } from './directory';
import { HOUR_MS, paginate, signedIn, type MockRoutes } from './context';
import {
  acquirerAnswer,
  approval,
  change,
  conversationKey,
  detailOf,
  filteredInvoices,
  findInvoice,
  historyEntry,
  issuerFor,
  postMockMessage,
  received,
  requireStatus,
  trailOf,
  visibleInvoices,
} from './invoices';

/** The invoices' routes: listing, registering, their files, reviewing and their conversation. */
export const INVOICE_ROUTES = {
  listInvoices: (context) =>
    paginate(
      filteredInvoices(context, context.query).map(({ statusHistory: _history, ...summary }) => summary),
      context.query,
    ),
  countInvoices: (context) => ({ count: filteredInvoices(context, context.query).length, exact: true }),
  createInvoiceFromXml: (context) => {
    const supplierId = issuerFor(context);
    const numericId = String(3000 + context.world.invoices.length);
    return received(context, {
      prefixId: 'F001',
      numericId,
      type: 'FACTURA',
      supplierId,
      // The XML names the client: the company acted for when it is one of the group (staff), else the first.
      client: MOCK_CLIENTS.find((client) => client.taxId === context.company)?.taxId ?? MOCK_CLIENTS[0]!.taxId,
      currency: 'PEN',
      amount: 1180,
      xmlUrl: context.body.url,
    });
  },
  createInvoiceWithoutXml: (context) => {
    const { body } = context;
    return received(context, {
      prefixId: body.prefixId,
      numericId: body.numericId,
      type: body.type,
      supplierId: issuerFor(context, body.supplierTaxId),
      client: body.clientTaxId,
      currency: body.currency,
      amount: body.amount,
      taxAmount: body.taxAmount,
      issuedAt: body.issueDate,
      pdfUrl: body.pdfUrl,
      notes: body.notes ?? null,
    });
  },

  createUpload: (context) => {
    const key = `mock/${context.now.getTime()}-${context.body.fileName}`;
    return {
      key,
      url: context.filesUrl,
      fields: { key, 'Content-Type': context.body.contentType },
      expiresAt: new Date(context.now.getTime() + HOUR_MS / 4).toISOString(),
      maxBytes: 10 * 1024 * 1024,
    };
  },
  getInvoiceFile: (context) => {
    const invoice = findInvoice(context, context.path);
    const extension = context.query.file === 'xml' ? 'xml' : 'pdf';
    const fileName =
      context.query.file === 'attachment'
        ? `adjunto-${context.query.index ?? 0}-${invoice.id}.pdf`
        : `${invoice.supplierId}-${invoice.id}.${extension}`;
    return {
      url: `${context.filesUrl}/${encodeURIComponent(fileName)}`,
      expiresAt: new Date(context.now.getTime() + HOUR_MS / 12).toISOString(),
      fileName,
    };
  },

  getInvoice: (context) => detailOf(findInvoice(context, context.path)),
  listInvoiceHistory: (context) => paginate(trailOf(findInvoice(context, context.path)), context.query),
  updateInvoice: (context) =>
    change(context, context.path, (invoice) => {
      if (invoice.certStatus === 'PENDING') throw new ConflictError('ERROR_UPDATE_INVOICE_WITH_PENDING_STATUS');
      if (invoice.certStatus === 'INVALID') {
        throw new ConflictError('ERROR_UPDATE_INVOICE_WITH_INVALID_CERTIFICATION_STATUS');
      }
      requireStatus(invoice, ['PENDING', 'COMPLETED'], 'disapprove');
      const { body } = context;
      const responsible = MOCK_EMPLOYEES[invoice.client]?.find((employee) => employee.id === body.responsibleId);
      if (!responsible) throw new NotFoundError('ERROR_EMPLOYEE_NOT_FOUND');
      return {
        status: 'COMPLETED',
        operationType: body.operationType,
        responsible,
        officeId: body.officeId,
        locationId: body.locationId,
        purchaseOrders: body.purchaseOrders,
        serviceSheets: body.serviceSheets,
        materialDocs: body.materialDocs,
        attachments: body.attachments,
        statusHistory:
          invoice.status === 'COMPLETED'
            ? invoice.statusHistory
            : [...invoice.statusHistory, historyEntry('COMPLETED', context, null)],
      };
    }),
  approveInvoice: (context) =>
    change(context, context.path, (invoice) => {
      requireStatus(invoice, ['COMPLETED'], 'approve');
      return approval(invoice, context);
    }),
  approveInvoiceDespiteRucRisk: (context) =>
    change(context, context.path, (invoice) => {
      requireStatus(invoice, ['COMPLETED'], 'approve');
      const persona = signedIn(context.persona);
      return {
        ...approval(invoice, context),
        rucRiskOverride: {
          by: persona.user.email,
          at: context.now.toISOString(),
          reason: context.body.reason,
          estadoRuc: 'SUSPENSION TEMPORAL',
          condDomiRuc: 'HABIDO',
        },
      };
    }),
  listInvoiceMessages: (context) => {
    const invoice = findInvoice(context, context.path);
    return {
      items: context.world.messages[conversationKey(context.path)] ?? [],
      observation: invoice.observation ?? null,
      conversation: invoice.conversation ?? null,
    };
  },
  postInvoiceMessage: (context) => postMockMessage(context, context.path, 'MESSAGE'),
  observeInvoice: (context) => postMockMessage(context, context.path, 'OBSERVE'),
  clearInvoiceObservation: (context) => {
    const invoice = findInvoice(context, context.path);
    if (!invoice.observation) throw new ConflictError('ERROR_INVOICE_NOT_OBSERVED');
    Object.assign(
      invoice,
      conversationAfter(
        { observation: invoice.observation, conversation: invoice.conversation ?? null },
        { kind: 'CLEAR' },
      ),
    );
    return {
      items: context.world.messages[conversationKey(context.path)] ?? [],
      observation: null,
      conversation: invoice.conversation ?? null,
    };
  },
  getInvoiceMessageFile: (context) => {
    findInvoice(context, context.path);
    const message = (context.world.messages[conversationKey(context.path)] ?? []).find(
      (each) => each.id === context.path.messageId,
    );
    if (!message) throw new NotFoundError('ERROR_MESSAGE_NOT_FOUND');
    const file = message.attachments[context.query.index];
    if (!file) throw new NotFoundError('ERROR_FILE_NOT_FOUND');
    return {
      url: `${context.filesUrl}/${encodeURIComponent(file.fileName)}`,
      expiresAt: new Date(context.now.getTime() + HOUR_MS / 12).toISOString(),
      fileName: file.fileName,
    };
  },
  countWaitingConversations: (context) => {
    const side = sideOf(signedIn(context.persona).user.level);
    return { count: visibleInvoices(context).filter((invoice) => invoice.conversation?.waitingOn === side).length };
  },
  disapproveInvoice: (context) =>
    change(context, context.path, (invoice) => {
      requireStatus(invoice, ['PENDING', 'COMPLETED'], 'disapprove');
      return {
        status: 'REJECTED',
        statusMessage: context.body.reason,
        disapprovedWithoutRejection: context.query.noRejection,
        statusHistory: [...invoice.statusHistory, historyEntry('REJECTED', context, context.body.reason)],
      };
    }),
  retrySapPosting: (context) =>
    change(context, context.path, (invoice) => {
      if (invoice.sapDocument) {
        throw new ConflictError('ERROR_SAP_POSTING_ALREADY_POSTED', { document: invoice.sapDocument.number });
      }
      requireStatus(invoice, ['ACCEPTED'], 'approve');
      return { sapDocument: approval(invoice, context).sapDocument };
    }),
  requestSunatValidation: (context) =>
    // The simulated SUNAT answers at once: the document is valid.
    change(context, context.path, () => ({ certStatus: 'VALID' })),
  registerAcquirerConformity: (context) =>
    change(context, context.path, (invoice) => ({ acquirerConformity: acquirerAnswer(invoice, context) })),
} satisfies Partial<MockRoutes>;
