/**
 * The single DynamoDB table: key attributes, indexes and key builders, defined once.
 * The CDK table, the local stage's CreateTable, the seed and the repositories all read this module.
 * The access-pattern table lives in docs/data-design.md.
 *
 * Indexes are generic (gsi1…gsi11, four of them retired) and overloaded by entity: the key builders below are the only
 * place that says what an index holds for which entity. Every index projects all attributes, so a
 * list page is one Query per partition and never a second read per item.
 */
export const TABLE = {
  logicalName: 'PortalTable',
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expiresAt',
  indexes: {
    /** Invoices of a company, newest first · conformity documents of an acquirer · audit events of one account. */
    byClient: { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    /** A supplier's invoice search (its search items, ADR 0045) · the whole audit log, newest first. */
    bySupplier: { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    /** Invoices of one supplier at one company · conformity documents of an acquirer by issuer. */
    byClientSupplier: { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
    /** Invoices of a company in one status · conformity documents of one purchase order. */
    byClientStatus: { name: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk' },
    /** Invoices of a supplier in one status. */
    bySupplierStatus: { name: 'gsi5', partitionKey: 'gsi5pk', sortKey: 'gsi5sk' },
    /** Invoices of a company under one responsible · conformity documents by responsible (sparse). */
    byClientResponsible: { name: 'gsi8', partitionKey: 'gsi8pk', sortKey: 'gsi8sk' },
    /** The supplier directory by RUC prefix. */
    byClientRuc: { name: 'gsi10', partitionKey: 'gsi1pk', sortKey: 'rucKey' },
    /** The supplier directory by name prefix. */
    byClientName: { name: 'gsi11', partitionKey: 'gsi1pk', sortKey: 'nameKey' },
  },
  /**
   * Indexes that held invoices before their lists became list entries (ADR 0042) and hold nothing since
   * (docs/adr/0044-retired-indexes.md): a deployed table keeps them until they are deleted, one per deploy as
   * DynamoDB allows; the local stage's table goes without them (DynamoDB Local spends time on every index of a table
   * at every write, even an index the item is not in). Nothing reads or writes them.
   */
  retiredIndexes: {
    byClientType: { name: 'gsi6', partitionKey: 'gsi6pk', sortKey: 'gsi6sk' },
    byClientOffice: { name: 'gsi7', partitionKey: 'gsi7pk', sortKey: 'gsi7sk' },
    byClientDue: { name: 'gsi9', partitionKey: 'gsi1pk', sortKey: 'numberKey' },
    bySupplierDue: { name: 'gsi12', partitionKey: 'gsi2pk', sortKey: 'numberKey' },
  },
} as const;

export type IndexName = keyof typeof TABLE.indexes;
export type ItemKey = { pk: string; sk: string };

/** Lower case, no accents, single spaces: what name searches compare. */
export function normalizeForSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9ñ ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The searchable start of a name, as the name-index sort keys hold it: searches compare a prefix of at most
 * 100 characters, and a sort key holds at most 1,024 bytes, so a long name (up to 1,500 characters) keeps its
 * first 200 code points there.
 */
export function nameKeyOf(name: string): string {
  return Array.from(normalizeForSearch(name)).slice(0, 200).join('').trimEnd();
}

/** The attributes of an invoice that its index keys are made from. */
export interface InvoiceIndexSource {
  readonly client: string;
  readonly supplierId: string;
  readonly supplierName: string;
  readonly type: string;
  readonly id: string;
  /** When the portal received it (the latest submission): the order of every invoice listing. */
  readonly receivedAt: string;
  readonly status: string;
  readonly officeId: string | null;
  readonly responsible: { readonly id: string } | null;
  /** When the portal expects to pay it (docs/ap-payment.md): the due-date listing's order. */
  readonly payment?: { readonly expectedPaymentDate: string | null } | null | undefined;
}

export const CONFORMITY_KINDS = ['SERVICE_SHEET', 'MATERIAL_DOCUMENT'] as const;
export type ConformityKind = (typeof CONFORMITY_KINDS)[number];

const ORDER_PREFIX = 'INVOICE#';
const DUE_PREFIX = 'DUE#';
/** Past every millisecond timestamp until the year 2286: subtracting from it orders newest first. */
const INVERTED_TIME_BASE = 9_999_999_999_999;

export const keys = {
  invoice(supplierId: string, type: string, invoiceId: string): ItemKey {
    return { pk: `INVOICE#${supplierId}#${type}#${invoiceId}`, sk: 'INVOICE' };
  },
  /** Newest received first within every invoice partition; the key makes the order total. */
  invoiceOrder(invoice: Pick<InvoiceIndexSource, 'receivedAt' | 'supplierId' | 'type' | 'id'>): string {
    return `${ORDER_PREFIX}${invoice.receivedAt}#${invoice.supplierId}#${invoice.type}#${invoice.id}`;
  },
  invoiceOrderPrefix: ORDER_PREFIX,
  /**
   * The due-date listing's sort key (byClientDue, bySupplierDue): `DUE#{expected payment date}#{receivedAt}#…`,
   * soonest first read forwards, a total order as the invoice order. Written in the attribute `numberKey`.
   */
  invoiceDueOrder(
    invoice: Pick<InvoiceIndexSource, 'receivedAt' | 'supplierId' | 'type' | 'id'>,
    expectedPaymentDate: string,
  ): string {
    return `${DUE_PREFIX}${expectedPaymentDate}#${invoice.receivedAt}#${invoice.supplierId}#${invoice.type}#${invoice.id}`;
  },
  /** The range of due keys from `from` to `to` (ISO dates, both included). */
  invoiceDueRange(from: string, to: string): { from: string; to: string } {
    // '~' sorts after '#' and every digit: the whole last day is inside the range.
    return { from: `${DUE_PREFIX}${from}`, to: `${DUE_PREFIX}${to}~` };
  },
  invoiceDuePrefix: DUE_PREFIX,
  /**
   * The lists an invoice belongs to (ADR 0042), each as the partition of its list entry and the entry's sort key:
   * the company's and the supplier's lists by the invoice order (newest first), and the due-date lists
   * (`DUE#…`, soonest first) in the company's and the supplier's partitions while there is something to pay.
   */
  invoiceLists(invoice: InvoiceIndexSource): { readonly list: string; readonly order: string }[] {
    const order = keys.invoiceOrder(invoice);
    const lists = [
      keys.clientInvoices(invoice.client),
      keys.supplierInvoices(invoice.supplierId),
      keys.clientSupplierInvoices(invoice.client, invoice.supplierId),
      keys.clientStatusInvoices(invoice.client, invoice.status),
      keys.supplierStatusInvoices(invoice.supplierId, invoice.status),
      keys.clientTypeInvoices(invoice.client, invoice.type),
      ...(invoice.officeId ? [keys.clientOfficeInvoices(invoice.client, invoice.officeId)] : []),
      ...(invoice.responsible ? [keys.clientResponsibleInvoices(invoice.client, invoice.responsible.id)] : []),
    ].map((list) => ({ list, order }));
    const expected = invoice.payment?.expectedPaymentDate;
    if (expected && invoice.status !== 'REJECTED') {
      const due = keys.invoiceDueOrder(invoice, expected);
      lists.push(
        { list: keys.clientInvoices(invoice.client), order: due },
        { list: keys.supplierInvoices(invoice.supplierId), order: due },
      );
    }
    return lists;
  },
  /** The partition of a list's entries in the table (a list's name, e.g. `CLIENT#{c}#STATUS#{st}`, behind `LIST#`). */
  invoiceListPartition: (list: string) => `LIST#${list}`,
  /**
   * The list entries of an invoice (ADR 0042): one small item per list it belongs to, holding only the invoice's
   * key. Written with every change that moves the invoice between lists, in the same transaction.
   */
  invoiceListEntries(invoice: InvoiceIndexSource): (ItemKey & Record<string, string>)[] {
    return keys.invoiceLists(invoice).map(({ list, order }) => ({
      pk: keys.invoiceListPartition(list),
      sk: order,
      supplierId: invoice.supplierId,
      type: invoice.type,
      id: invoice.id,
    }));
  },
  /** Where the migration to list entries (ADR 0042) keeps how far its pass went, and when it ended. */
  invoiceListsMigration: { pk: 'MIGRATION#INVOICE_LISTS', sk: 'STATE' } as ItemKey,
  /** Where the migration of the search items to one item per token (ADR 0045) keeps its pass's state. */
  searchItemsMigration: { pk: 'MIGRATION#SEARCH_ITEMS', sk: 'STATE' } as ItemKey,
  /**
   * The index attributes invoice items carried before ADR 0042 (every list was an index of the invoice item):
   * removed by the migration job and by the first change of an invoice stored before it.
   */
  legacyInvoiceIndexAttributes: [
    'gsi1pk',
    'gsi1sk',
    'gsi2pk',
    'gsi2sk',
    'gsi3pk',
    'gsi3sk',
    'gsi4pk',
    'gsi4sk',
    'gsi5pk',
    'gsi5sk',
    'gsi6pk',
    'gsi6sk',
    'gsi7pk',
    'gsi7sk',
    'gsi8pk',
    'gsi8sk',
    'numberKey',
  ] as const,
  clientInvoices: (client: string) => `CLIENT#${client}`,
  supplierInvoices: (supplierId: string) => `SUPPLIER#${supplierId}`,
  clientSupplierInvoices: (client: string, supplierId: string) => `CLIENT#${client}#SUPPLIER#${supplierId}`,
  clientStatusInvoices: (client: string, status: string) => `CLIENT#${client}#STATUS#${status}`,
  supplierStatusInvoices: (supplierId: string, status: string) => `SUPPLIER#${supplierId}#STATUS#${status}`,
  clientTypeInvoices: (client: string, type: string) => `CLIENT#${client}#TYPE#${type}`,
  clientOfficeInvoices: (client: string, officeId: string) => `CLIENT#${client}#OFFICE#${officeId}`,
  clientResponsibleInvoices: (client: string, responsibleId: string) => `CLIENT#${client}#RESPONSIBLE#${responsibleId}`,

  /** The MIRO request written with the approval, read by the MIRO worker (one per invoice). */
  miroOutbox(supplierId: string, type: string, invoiceId: string): ItemKey {
    return { pk: `MIRO#${supplierId}#${type}#${invoiceId}`, sk: 'OUTBOX' };
  },
  /** MIRO records still to drive (PENDING, POSTING), by when the sweeper looks at them next (byClient). */
  miroDue: 'MIRO#DUE',
  /** A company's MIRO records not POSTED, by approval time (byClientSupplier): the dashboard's late ones. */
  miroOpen: (client: string) => `MIRO#OPEN#${client}`,
  /** A company's FAILED MIRO records (byClientSupplier): the dashboard's failed ones. */
  miroFailed: (client: string) => `MIRO#FAILED#${client}`,
  /**
   * The index attributes of a MIRO record in one state: open ones are due at `dueAt` (byClient) and
   * counted by approval time (byClientSupplier); FAILED ones only counted; POSTED ones in no index.
   */
  miroIndexes(
    record: { pk: string; client: string; createdAt: string },
    state: 'PENDING' | 'POSTING' | 'POSTED' | 'FAILED',
    dueAt: string | null,
  ): Record<string, string> {
    const counted = { gsi3sk: `${record.createdAt}#${record.pk}` };
    if (state === 'POSTED') return {};
    if (state === 'FAILED') return { gsi3pk: keys.miroFailed(record.client), ...counted };
    return {
      gsi1pk: keys.miroDue,
      gsi1sk: `${dueAt ?? record.createdAt}#${record.pk}`,
      gsi3pk: keys.miroOpen(record.client),
      ...counted,
    };
  },

  /**
   * The SUNAT check of an invoice (docs/data-design.md, "SUNAT checks"): written with every change that leaves the
   * invoice's certStatus PENDING (intake, a staff request), closed with SUNAT's verdict. While open it sits in the
   * byClient index under `SUNAT#DUE`, by when the outbox sweeper looks at it next.
   */
  sunatCheck(supplierId: string, type: string, invoiceId: string): ItemKey {
    return { pk: `SUNAT#${supplierId}#${type}#${invoiceId}`, sk: 'CHECK' };
  },
  sunatDue: 'SUNAT#DUE',
  sunatCheckIndexes(pk: string, dueAt: string): Record<string, string> {
    return { gsi1pk: keys.sunatDue, gsi1sk: `${dueAt}#${pk}` };
  },

  /**
   * The Ley 29623 conformity clock of an invoice (docs/data-design.md, "Acquirer conformity clocks"), written with
   * every change of the clock on the invoice. While OPEN it sits in the byClient index under `ACQ_CONFORMITY#DUE`, by
   * when the scheduled job takes its next step (a reminder, the presumed conformity); in every state it is listed by
   * deadline per company (byClientSupplier) and per supplier (bySupplierStatus), for the list's filter.
   */
  acquirerConformity(supplierId: string, type: string, invoiceId: string): ItemKey {
    return { pk: `ACQ_CONFORMITY#${supplierId}#${type}#${invoiceId}`, sk: 'CLOCK' };
  },
  acquirerConformityDue: 'ACQ_CONFORMITY#DUE',
  acquirerConformityOfClient: (client: string, state: string) => `ACQ_CONFORMITY#CLIENT#${client}#${state}`,
  acquirerConformityOfSupplier: (supplierId: string, state: string) => `ACQ_CONFORMITY#SUPPLIER#${supplierId}#${state}`,
  acquirerConformityIndexes(clock: {
    readonly pk: string;
    readonly client: string;
    readonly supplierId: string;
    readonly state: string;
    readonly deadline: string;
    /** When the job takes the next step; null once no step is left (an answer, the presumption). */
    readonly nextAt: string | null;
  }): Record<string, string> {
    const byDeadline = `${clock.deadline}#${clock.pk}`;
    return {
      ...(clock.nextAt ? { gsi1pk: keys.acquirerConformityDue, gsi1sk: `${clock.nextAt}#${clock.pk}` } : {}),
      gsi3pk: keys.acquirerConformityOfClient(clock.client, clock.state),
      gsi3sk: byDeadline,
      gsi5pk: keys.acquirerConformityOfSupplier(clock.supplierId, clock.state),
      gsi5sk: byDeadline,
    };
  },

  clients: { pk: 'CLIENTS', skPrefix: 'CLIENT#' },
  client(taxId: string): ItemKey {
    return { pk: 'CLIENTS', sk: `CLIENT#${taxId}` };
  },

  /**
   * One search index item of an invoice (see search.ts): partitioned by scope, owner (the company, or the
   * supplier) and the token's first character; sorted by token, then newest received first.
   */
  searchEntry(
    scope: 'CLIENT' | 'SUPPLIER',
    owner: string,
    token: string,
    invoice: Pick<InvoiceIndexSource, 'receivedAt' | 'supplierId' | 'type' | 'id'>,
  ): ItemKey {
    const newestFirst = String(INVERTED_TIME_BASE - Date.parse(invoice.receivedAt)).padStart(13, '0');
    return {
      pk: keys.searchPartition(scope, owner, token),
      sk: `${token}#${newestFirst}#${invoice.supplierId}#${invoice.type}#${invoice.id}`,
    };
  },
  searchPartition: (scope: 'CLIENT' | 'SUPPLIER', owner: string, token: string) =>
    `SEARCH#${scope}#${owner}#${token.charAt(0)}`,

  /**
   * The invoice counts behind the list's total, ADDed in the transaction of every invoice change (see
   * rules/invoice-counts.ts): a company's `{status}#{type}` live on its dashboard item of all time (one item
   * fewer for every transaction to write), a supplier's `{client}#{status}#{type}` on an item of its own.
   */
  invoiceCounts(scope: 'CLIENT' | 'SUPPLIER', owner: string): ItemKey {
    return scope === 'CLIENT' ? keys.dashboard(owner, 'ALL') : { pk: `COUNTS#SUPPLIER#${owner}`, sk: 'INVOICES' };
  },

  /** Counters of one company: per month of issue (YYYY-MM) and in total (ALL). */
  dashboard(client: string, period: string | 'ALL'): ItemKey {
    return { pk: `DASHBOARD#${client}`, sk: `PERIOD#${period}` };
  },

  officeLocations: (taxId: string) => `OFFICES#${taxId}`,
  officeLocation(taxId: string, id: string): ItemKey {
    return { pk: `OFFICES#${taxId}`, sk: `OFFICE#${id}` };
  },

  employees: (acquirer: string) => `EMPLOYEES#${acquirer}`,
  employee(acquirer: string, id: string): ItemKey {
    return { pk: `EMPLOYEES#${acquirer}`, sk: `EMPLOYEE#${id}` };
  },
  /**
   * An employee is found by any word of its name: one item per word (see employeeWordItems in search.ts),
   * sorted by the word, holding the employee as the list shows it.
   */
  employeeWord(acquirer: string, word: string, id: string): ItemKey {
    return { pk: keys.employeeWords(acquirer), sk: `${word}#${id}` };
  },
  employeeWords: (acquirer: string) => `EMPLOYEE_WORDS#${acquirer}`,

  purchaseOrder(acquirer: string, id: string): ItemKey {
    return { pk: `PO#${acquirer}#${id}`, sk: 'PO' };
  },

  conformity(kind: ConformityKind, acquirer: string, documentId: string): ItemKey {
    return { pk: `CONFORMITY#${kind}#${acquirer}#${documentId}`, sk: 'DOC' };
  },
  conformityOfAcquirer: (kind: ConformityKind, acquirer: string) => `CONFORMITY#${kind}#${acquirer}`,
  conformityOfIssuer: (kind: ConformityKind, acquirer: string, issuer: string) =>
    `CONFORMITY#${kind}#${acquirer}#ISSUER#${issuer}`,
  conformityOfResponsible: (kind: ConformityKind, acquirer: string, responsible: string) =>
    `CONFORMITY#${kind}#${acquirer}#RESPONSIBLE#${responsible}`,
  conformityOfPurchaseOrder: (kind: ConformityKind, acquirer: string, purchaseOrder: string) =>
    `CONFORMITY#${kind}#${acquirer}#PO#${purchaseOrder}`,
  /**
   * Conformity documents are listed by acquirer, by issuer, by responsible and by purchase order (the suggested
   * HES and MIGO of issue 23), newest fiscal year first.
   */
  conformityIndexes(
    kind: ConformityKind,
    doc: {
      acquirerTaxId: string;
      issuerTaxId: string;
      responsible: string | null;
      purchaseOrder: string;
      fiscalYear: string;
      documentId: string;
    },
  ): Record<string, string> {
    const order = `${doc.fiscalYear}#${doc.documentId}`;
    const attributes: Record<string, string> = {
      gsi1pk: keys.conformityOfAcquirer(kind, doc.acquirerTaxId),
      gsi1sk: order,
      gsi3pk: keys.conformityOfIssuer(kind, doc.acquirerTaxId, doc.issuerTaxId),
      gsi3sk: order,
      gsi4pk: keys.conformityOfPurchaseOrder(kind, doc.acquirerTaxId, doc.purchaseOrder),
      gsi4sk: order,
    };
    if (doc.responsible) {
      attributes.gsi8pk = keys.conformityOfResponsible(kind, doc.acquirerTaxId, doc.responsible);
      attributes.gsi8sk = order;
    }
    return attributes;
  },

  /** The supplier directory of the header search: one profile per RUC. */
  supplier(ruc: string): ItemKey {
    return { pk: `SUPPLIER#${ruc}`, sk: 'PROFILE' };
  },
  suppliersDirectory: 'SUPPLIERS',
  supplierIndexes(supplier: { taxId: string; name: string }): Record<string, string> {
    return {
      gsi1pk: 'SUPPLIERS',
      rucKey: supplier.taxId,
      nameKey: `${nameKeyOf(supplier.name)}#${supplier.taxId}`,
    };
  },

  /**
   * Notification feeds are kept per audience — a supplier RUC or a company — and a user reads the
   * feeds of its taxId list; newest first. What a user has read is one mark per user. A user's own feed
   * ('USER', keyed by its sub) holds what concerns that person alone: its exports ready to download.
   */
  feed: (audience: 'SUPPLIER' | 'CLIENT' | 'USER', taxId: string) => `FEED#${audience}#${taxId}`,
  notification(audience: 'SUPPLIER' | 'CLIENT' | 'USER', taxId: string, registeredAt: string, id: string): ItemKey {
    return { pk: keys.feed(audience, taxId), sk: `NOTIFICATION#${registeredAt}#${id}` };
  },
  notificationPrefix: 'NOTIFICATION#',
  /** A user's export of a list (issue 23): kept under its owner, so that only the owner reads it; expires in days. */
  exportJob(userId: string, exportId: string): ItemKey {
    return { pk: `USER#${userId}`, sk: `EXPORT#${exportId}` };
  },
  exportJobPrefix: 'EXPORT#',
  /** A received e-mail once processed (issue 24): a redelivery of its queue message registers and answers nothing. */
  inboundMessage(messageId: string): ItemKey {
    return { pk: `INBOUND_MAIL#${messageId}`, sk: 'PROCESSED' };
  },
  /** One document's result of a received e-mail (by its folded base name), beside its record: a resume skips it. */
  inboundMessageResult(messageId: string, baseKey: string): ItemKey {
    return { pk: `INBOUND_MAIL#${messageId}`, sk: `RESULT#${baseKey}` };
  },
  inboundMessageResultPrefix: 'RESULT#',
  /** Answers to one sender's refused e-mails in one hour (issue 24): a conditional counter, expiring. */
  mailAnswers(sender: string, hour: string): ItemKey {
    return { pk: `MAIL_ANSWERS#${sender.toLowerCase()}`, sk: `HOUR#${hour}` };
  },
  /**
   * A zip of documents (issue 24): the batch in a partition of its own, each document's result beside it (sorted by
   * its base name, folded), so that a page of results is one Query and recording one is a conditional Put.
   */
  intakeBatch(batchId: string): ItemKey {
    return { pk: `INTAKE_BATCH#${batchId}`, sk: 'BATCH' };
  },
  intakeResult(batchId: string, baseKey: string): ItemKey {
    return { pk: `INTAKE_BATCH#${batchId}`, sk: `RESULT#${baseKey}` };
  },
  intakeResultPrefix: 'RESULT#',
  /** Its uploader's pointer to a batch, by creation time: the recent batches are one Query, newest first. */
  intakeBatchOfUser(userId: string, createdAt: string, batchId: string): ItemKey {
    return { pk: `USER#${userId}`, sk: `INTAKE_BATCH#${createdAt}#${batchId}` };
  },
  intakeBatchOfUserPrefix: 'INTAKE_BATCH#',
  /**
   * Long jobs (a zip's batch, an export, a received e-mail) while a worker holds them, by when their lease lapses
   * (byClient, `{leaseUntil}#{pk}`): the outbox sweeper takes over those whose worker stopped renewing
   * (docs/intake-channels.md#lease-and-resume).
   */
  jobLeases: 'JOB#LEASE',
  readMark(userId: string): ItemKey {
    return { pk: `USER#${userId}`, sk: 'READ_MARK' };
  },
  /**
   * Who gets e-mail for a taxId (a supplier RUC or a company): one item per account, `{userId, email,
   * canReceiveEmails}`, kept in step with Cognito by the user administration (it is also how the
   * administration finds the accounts of a RUC).
   */
  recipients: (taxId: string) => `RECIPIENTS#${taxId}`,
  recipient(taxId: string, userId: string): ItemKey {
    return { pk: `RECIPIENTS#${taxId}`, sk: `USER#${userId}` };
  },

  /**
   * The administrators' audit log: one item per change, partitioned by month of the change (writes spread,
   * a month can be read or archived alone), listed newest first per account (byClient) and in whole (bySupplier).
   */
  auditEvent(occurredAt: string, id: string): ItemKey {
    return { pk: `AUDIT#${occurredAt.slice(0, 7)}`, sk: `${occurredAt}#${id}` };
  },
  auditLog: 'AUDIT',
  /** Every audit partition starts so: IAM denies every function the update and deletion of their items. */
  auditPrefix: 'AUDIT#',
  /** One invoice's audit trail (issue 23), oldest first: its own partition, written once per change, never changed. */
  invoiceAudit(invoice: { supplierId: string; type: string; id: string }, occurredAt: string, id: string): ItemKey {
    return { pk: keys.invoiceAuditOf(invoice), sk: `${occurredAt}#${id}` };
  },
  invoiceAuditOf: (invoice: { supplierId: string; type: string; id: string }) =>
    `AUDIT#INVOICE#${invoice.supplierId}#${invoice.type}#${invoice.id}`,
  auditOfUser: (userId: string) => `AUDIT#USER#${userId}`,
  auditIndexes(event: { occurredAt: string; id: string; targetUserId: string }): Record<string, string> {
    const order = `${event.occurredAt}#${event.id}`;
    return { gsi1pk: keys.auditOfUser(event.targetUserId), gsi1sk: order, gsi2pk: keys.auditLog, gsi2sk: order };
  },

  /**
   * A queue message written in the same transaction as the change that causes it, deleted once sent;
   * the message relay sends again whatever is still there a minute later (the send failed).
   */
  outgoing(queue: string, id: string): ItemKey {
    return { pk: `OUTGOING#${queue}#${id}`, sk: 'MESSAGE' };
  },
  outgoingQueue: (queue: string) => `OUTGOING#${queue}`,
  outgoingIndexes(queue: string, createdAt: string, id: string): Record<string, string> {
    return { gsi1pk: keys.outgoingQueue(queue), gsi1sk: `${createdAt}#${id}` };
  },

  /**
   * The accounts an administrator disabled, one item (`userIds`, a string set of Cognito Usernames): written
   * in the disable's and the enable's transaction, read by every API function at most once a minute.
   */
  disabledUsers: { pk: 'ACCESS', sk: 'DISABLED_USERS' } as ItemKey,

  /**
   * A supplier's API client (issue 24), all in one partition (an administrator lists them all; a few hundred at
   * most): its RUC and scopes, read by the PreTokenGeneration trigger at each client-credentials token.
   */
  apiClient: (clientId: string): ItemKey => ({ pk: keys.apiClients, sk: clientId }),
  apiClients: 'API_CLIENT',
  /**
   * One API client's calls in one fixed window (the per-client rate limit), gone by TTL a while after the
   * window. Functions may update only items under this prefix for it (FunctionUses.apiClientRate).
   */
  apiClientRate: (clientId: string, windowStart: string): ItemKey => ({
    pk: `${keys.apiClientRatePrefix}${clientId}`,
    sk: windowStart,
  }),
  apiClientRatePrefix: 'RATE#',

  /**
   * An uploaded object an invoice uses (its XML, its PDF or an attachment), written in that invoice's
   * transaction: a refused upload is deleted only when no such item says it is in use.
   */
  uploadUse(objectKey: string, invoiceKey: string): ItemKey {
    return { pk: `UPLOAD#${objectKey}`, sk: `USE#${invoiceKey}` };
  },
  uploadUses: (objectKey: string) => `UPLOAD#${objectKey}`,

  /**
   * The notes of one original (issue 21), keyed by the original's key (the note's issuer, the original's type and
   * series-number), whether the original is in the portal yet or not: one item per note (`NOTE#{type}#{id}`), and a
   * head whose `version` every note that links to it moves, so that the original's intake, which reads the notes,
   * and a note's intake, which adds one, never both commit without seeing each other.
   */
  originalNotes: (supplierId: string, type: string, invoiceId: string) => `NOTES#${supplierId}#${type}#${invoiceId}`,
  originalNotesHead(supplierId: string, type: string, invoiceId: string): ItemKey {
    return { pk: keys.originalNotes(supplierId, type, invoiceId), sk: 'HEAD' };
  },
  originalNote(
    original: { supplierId: string; type: string; id: string },
    note: { type: string; id: string },
  ): ItemKey {
    return {
      pk: keys.originalNotes(original.supplierId, original.type, original.id),
      sk: `NOTE#${note.type}#${note.id}`,
    };
  },
  originalNotePrefix: 'NOTE#',

  /**
   * One message of an invoice's conversation (issue 23), under the invoice's own partition: `MSG#{messageId}`, the id
   * starting with the message's time, so that the conversation reads oldest first with one Query.
   */
  invoiceMessage(supplierId: string, type: string, invoiceId: string, messageId: string): ItemKey {
    return { pk: keys.invoice(supplierId, type, invoiceId).pk, sk: `MSG#${messageId}` };
  },
  invoiceMessagePrefix: 'MSG#',
  /**
   * How many invoices' conversations wait on one side (issue 23): a supplier RUC's (`SUPPLIER`) or a company's staff
   * (`STAFF`); `count` is ADDed in the transaction of every change that moves an invoice's wait (invoice-store.ts).
   */
  waitingConversations(side: 'SUPPLIER' | 'STAFF', owner: string): ItemKey {
    return { pk: `CONVERSATIONS#${side}#${owner}`, sk: 'WAITING' };
  },

  /** Read by the health check: the item need not exist, the read must succeed. */
  health: { pk: 'HEALTH', sk: 'HEALTH' } as ItemKey,
} as const;
