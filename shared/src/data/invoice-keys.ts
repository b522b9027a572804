import type { InvoiceIndexSource, ItemKey } from './table-schema.js';

/**
 * The keys of an invoice and of the records beside it (its lists, MIRO request, SUNAT check, conformity clock,
 * search items, counters, audit trail, notes and messages): see table.ts.
 */

const ORDER_PREFIX = 'INVOICE#';
const DUE_PREFIX = 'DUE#';
/** Past every millisecond timestamp until the year 2286: subtracting from it orders newest first. */
const INVERTED_TIME_BASE = 9_999_999_999_999;

export const invoiceKeys = {
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
    const order = invoiceKeys.invoiceOrder(invoice);
    const lists = [
      invoiceKeys.clientInvoices(invoice.client),
      invoiceKeys.supplierInvoices(invoice.supplierId),
      invoiceKeys.clientSupplierInvoices(invoice.client, invoice.supplierId),
      invoiceKeys.clientStatusInvoices(invoice.client, invoice.status),
      invoiceKeys.supplierStatusInvoices(invoice.supplierId, invoice.status),
      invoiceKeys.clientTypeInvoices(invoice.client, invoice.type),
      ...(invoice.officeId ? [invoiceKeys.clientOfficeInvoices(invoice.client, invoice.officeId)] : []),
      ...(invoice.responsible ? [invoiceKeys.clientResponsibleInvoices(invoice.client, invoice.responsible.id)] : []),
    ].map((list) => ({ list, order }));
    const expected = invoice.payment?.expectedPaymentDate;
    if (expected && invoice.status !== 'REJECTED') {
      const due = invoiceKeys.invoiceDueOrder(invoice, expected);
      lists.push(
        { list: invoiceKeys.clientInvoices(invoice.client), order: due },
        { list: invoiceKeys.supplierInvoices(invoice.supplierId), order: due },
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
    return invoiceKeys.invoiceLists(invoice).map(({ list, order }) => ({
      pk: invoiceKeys.invoiceListPartition(list),
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
    if (state === 'FAILED') return { gsi3pk: invoiceKeys.miroFailed(record.client), ...counted };
    return {
      gsi1pk: invoiceKeys.miroDue,
      gsi1sk: `${dueAt ?? record.createdAt}#${record.pk}`,
      gsi3pk: invoiceKeys.miroOpen(record.client),
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
    return { gsi1pk: invoiceKeys.sunatDue, gsi1sk: `${dueAt}#${pk}` };
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
      ...(clock.nextAt ? { gsi1pk: invoiceKeys.acquirerConformityDue, gsi1sk: `${clock.nextAt}#${clock.pk}` } : {}),
      gsi3pk: invoiceKeys.acquirerConformityOfClient(clock.client, clock.state),
      gsi3sk: byDeadline,
      gsi5pk: invoiceKeys.acquirerConformityOfSupplier(clock.supplierId, clock.state),
      gsi5sk: byDeadline,
    };
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
      pk: invoiceKeys.searchPartition(scope, owner, token),
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
    return scope === 'CLIENT'
      ? invoiceKeys.dashboard(owner, 'ALL')
      : { pk: `COUNTS#SUPPLIER#${owner}`, sk: 'INVOICES' };
  },

  /** Counters of one company: per month of issue (YYYY-MM) and in total (ALL). */
  dashboard(client: string, period: string | 'ALL'): ItemKey {
    return { pk: `DASHBOARD#${client}`, sk: `PERIOD#${period}` };
  },

  /** One invoice's audit trail, oldest first: its own partition, written once per change, never changed. */
  invoiceAudit(invoice: { supplierId: string; type: string; id: string }, occurredAt: string, id: string): ItemKey {
    return { pk: invoiceKeys.invoiceAuditOf(invoice), sk: `${occurredAt}#${id}` };
  },
  invoiceAuditOf: (invoice: { supplierId: string; type: string; id: string }) =>
    `AUDIT#INVOICE#${invoice.supplierId}#${invoice.type}#${invoice.id}`,
  /**
   * An uploaded object an invoice uses (its XML, its PDF or an attachment), written in that invoice's
   * transaction: a refused upload is deleted only when no such item says it is in use.
   */
  uploadUse(objectKey: string, invoiceKey: string): ItemKey {
    return { pk: `UPLOAD#${objectKey}`, sk: `USE#${invoiceKey}` };
  },
  uploadUses: (objectKey: string) => `UPLOAD#${objectKey}`,

  /**
   * The notes of one original, keyed by the original's key (the note's issuer, the original's type and
   * series-number), whether the original is in the portal yet or not: one item per note (`NOTE#{type}#{id}`), and a
   * head whose `version` every note that links to it moves, so that the original's intake, which reads the notes,
   * and a note's intake, which adds one, never both commit without seeing each other.
   */
  originalNotes: (supplierId: string, type: string, invoiceId: string) => `NOTES#${supplierId}#${type}#${invoiceId}`,
  originalNotesHead(supplierId: string, type: string, invoiceId: string): ItemKey {
    return { pk: invoiceKeys.originalNotes(supplierId, type, invoiceId), sk: 'HEAD' };
  },
  originalNote(
    original: { supplierId: string; type: string; id: string },
    note: { type: string; id: string },
  ): ItemKey {
    return {
      pk: invoiceKeys.originalNotes(original.supplierId, original.type, original.id),
      sk: `NOTE#${note.type}#${note.id}`,
    };
  },
  originalNotePrefix: 'NOTE#',

  /**
   * One message of an invoice's conversation, under the invoice's own partition: `MSG#{messageId}`, the id
   * starting with the message's time, so that the conversation reads oldest first with one Query.
   */
  invoiceMessage(supplierId: string, type: string, invoiceId: string, messageId: string): ItemKey {
    return { pk: invoiceKeys.invoice(supplierId, type, invoiceId).pk, sk: `MSG#${messageId}` };
  },
  invoiceMessagePrefix: 'MSG#',
  /**
   * How many invoices' conversations wait on one side: a supplier RUC's (`SUPPLIER`) or a company's staff
   * (`STAFF`); `count` is ADDed in the transaction of every change that moves an invoice's wait (invoice-store.ts).
   */
  waitingConversations(side: 'SUPPLIER' | 'STAFF', owner: string): ItemKey {
    return { pk: `CONVERSATIONS#${side}#${owner}`, sk: 'WAITING' };
  },
} as const;
