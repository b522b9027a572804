import { nameKeyOf, type ConformityKind, type ItemKey } from './table-schema.js';

/** The keys of everything else the table holds (directories, feeds, jobs, access, audit): see table.ts. */
export const recordKeys = {
  clients: { pk: 'CLIENTS', skPrefix: 'CLIENT#' },
  client(taxId: string): ItemKey {
    return { pk: 'CLIENTS', sk: `CLIENT#${taxId}` };
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
    return { pk: recordKeys.employeeWords(acquirer), sk: `${word}#${id}` };
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
   * HES and MIGO), newest fiscal year first.
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
      gsi1pk: recordKeys.conformityOfAcquirer(kind, doc.acquirerTaxId),
      gsi1sk: order,
      gsi3pk: recordKeys.conformityOfIssuer(kind, doc.acquirerTaxId, doc.issuerTaxId),
      gsi3sk: order,
      gsi4pk: recordKeys.conformityOfPurchaseOrder(kind, doc.acquirerTaxId, doc.purchaseOrder),
      gsi4sk: order,
    };
    if (doc.responsible) {
      attributes.gsi8pk = recordKeys.conformityOfResponsible(kind, doc.acquirerTaxId, doc.responsible);
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
    return { pk: recordKeys.feed(audience, taxId), sk: `NOTIFICATION#${registeredAt}#${id}` };
  },
  notificationPrefix: 'NOTIFICATION#',
  /** A user's export of a list: kept under its owner, so that only the owner reads it; expires in days. */
  exportJob(userId: string, exportId: string): ItemKey {
    return { pk: `USER#${userId}`, sk: `EXPORT#${exportId}` };
  },
  exportJobPrefix: 'EXPORT#',
  /** A received e-mail once processed: a redelivery of its queue message registers and answers nothing. */
  inboundMessage(messageId: string): ItemKey {
    return { pk: `INBOUND_MAIL#${messageId}`, sk: 'PROCESSED' };
  },
  /** One document's result of a received e-mail (by its folded base name), beside its record: a resume skips it. */
  inboundMessageResult(messageId: string, baseKey: string): ItemKey {
    return { pk: `INBOUND_MAIL#${messageId}`, sk: `RESULT#${baseKey}` };
  },
  inboundMessageResultPrefix: 'RESULT#',
  /** Answers to one sender's refused e-mails in one hour: a conditional counter, expiring. */
  mailAnswers(sender: string, hour: string): ItemKey {
    return { pk: `MAIL_ANSWERS#${sender.toLowerCase()}`, sk: `HOUR#${hour}` };
  },
  /**
   * A zip of documents: the batch in a partition of its own, each document's result beside it (sorted by
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
  auditOfUser: (userId: string) => `AUDIT#USER#${userId}`,
  auditIndexes(event: { occurredAt: string; id: string; targetUserId: string }): Record<string, string> {
    const order = `${event.occurredAt}#${event.id}`;
    return {
      gsi1pk: recordKeys.auditOfUser(event.targetUserId),
      gsi1sk: order,
      gsi2pk: recordKeys.auditLog,
      gsi2sk: order,
    };
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
    return { gsi1pk: recordKeys.outgoingQueue(queue), gsi1sk: `${createdAt}#${id}` };
  },

  /**
   * The accounts an administrator disabled, one item (`userIds`, a string set of Cognito Usernames): written
   * in the disable's and the enable's transaction, read by every API function at most once a minute.
   */
  disabledUsers: { pk: 'ACCESS', sk: 'DISABLED_USERS' } as ItemKey,

  /**
   * A supplier's API client, all in one partition (an administrator lists them all; a few hundred at
   * most): its RUC and scopes, read by the PreTokenGeneration trigger at each client-credentials token.
   */
  apiClient: (clientId: string): ItemKey => ({ pk: recordKeys.apiClients, sk: clientId }),
  apiClients: 'API_CLIENT',
  /**
   * One API client's calls in one fixed window (the per-client rate limit), gone by TTL a while after the
   * window. Functions may update only items under this prefix for it (FunctionUses.apiClientRate).
   */
  apiClientRate: (clientId: string, windowStart: string): ItemKey => ({
    pk: `${recordKeys.apiClientRatePrefix}${clientId}`,
    sk: windowStart,
  }),
  apiClientRatePrefix: 'RATE#',

  /** Read by the health check: the item need not exist, the read must succeed. */
  health: { pk: 'HEALTH', sk: 'HEALTH' } as ItemKey,
} as const;
