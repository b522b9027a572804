import { TransactionCanceledException, type TransactWriteItem } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  GetCommand,
  TransactWriteCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { invoiceCounterUpdates } from './invoice-counters.js';
import { waitingCounterUpdates } from './conversations.js';
import { auditEventOf, invoiceAuditWrite, type AuditStamp } from './invoice-audit.js';
import {
  ConflictError,
  Employee,
  Invoice,
  OfficeLocation,
  keys,
  invoiceTableKey,
  type ConformityFacts,
  type InvoiceRef,
  type CounterDelta,
  type ConformityKind,
  type InvoiceStatus,
} from '@portal/shared';

/** An invoice as stored: the contract's invoice plus the version that guards concurrent writes. */
export type StoredInvoice = Invoice & { readonly version: number };

export interface ConformityRef {
  readonly kind: ConformityKind;
  readonly documentId: string;
}

export interface InvoiceChange {
  readonly before: StoredInvoice;
  readonly after: Invoice;
  /** The write goes through only while the stored invoice is still in one of these statuses. */
  readonly whileStatusIn: readonly InvoiceStatus[];
  /** Who makes the change, what kind, from which call: its audit record is written in the same transaction. */
  readonly audit: AuditStamp;
  /** Conformity documents this invoice takes; each must be free or already its own. */
  readonly claim?: readonly ConformityRef[];
  /** Conformity documents this invoice lets go of. */
  readonly release?: readonly ConformityRef[];
  /** An item created with the change, only if absent (the MIRO outbox record). */
  readonly create?: Record<string, unknown> & { pk: string; sk: string };
  /** Items written with the change as they are (the queue messages it causes, see outgoing.ts). */
  readonly alsoPut?: readonly Record<string, unknown>[];
  /**
   * Items written with the change only while their condition holds (an item as the use case read it, say); if one
   * does not, nothing is written and the change is refused as moved (InvoiceChangedError: reload, check again).
   */
  readonly putIf?: readonly ConditionalPut[];
  /**
   * Other writes and checks of the same transaction (a note's approval moves its original's amount to pay,
   * note-links.ts); if one fails, the change is refused as moved (InvoiceChangedError).
   */
  readonly alsoWrite?: readonly TransactWriteItem[];
  /**
   * Other counts the change moves (the approval's SAP posting counts, ADR 0043), ADDed in the same update as the
   * invoice's own counters when they share an item.
   */
  readonly alsoCount?: readonly CounterDelta[];
}

export interface ConditionalPut {
  readonly item: Record<string, unknown>;
  readonly condition: string;
  readonly names?: Readonly<Record<string, string>>;
  readonly values?: Readonly<Record<string, unknown>>;
}

/**
 * The stored invoice moved (another writer committed first, or a transaction conflicted): the use
 * case reloads it and checks its rules again.
 */
export class InvoiceChangedError extends Error {
  constructor() {
    super('invoice changed while being written');
  }
}

type Doc = Record<string, unknown>;

const LEGACY_INDEX_NAMES = keys.legacyInvoiceIndexAttributes.join(', ');

/**
 * The list entries a change writes (ADR 0042): those of the lists the invoice leaves are deleted, those of the lists
 * it enters are put; a change that moves no list writes none.
 */
export function listEntryWrites(table: string, before: Invoice | null, after: Invoice): TransactWriteItem[] {
  const keyOf = (entry: { pk: string; sk: string }) => `${entry.pk}\u0000${entry.sk}`;
  const old = before ? keys.invoiceListEntries(before) : [];
  const now = keys.invoiceListEntries(after);
  const kept = new Set(now.map(keyOf));
  const had = new Set(old.map(keyOf));
  return [
    ...old
      .filter((entry) => !kept.has(keyOf(entry)))
      .map((entry) => ({ Delete: { TableName: table, Key: { pk: entry.pk, sk: entry.sk } } })),
    ...now.filter((entry) => !had.has(keyOf(entry))).map((entry) => ({ Put: { TableName: table, Item: entry } })),
  ] as unknown as TransactWriteItem[];
}

/** The invoice's partition key, `INVOICE#{supplierId}#{type}#{id}`: what a claimed document says holds it. */
export function invoiceKeyOf(invoice: InvoiceRef): string {
  return invoiceTableKey(invoice).pk;
}

export function makeInvoiceStore(db: DynamoDBDocumentClient, table: string, clock: () => Date = () => new Date()) {
  const parseStored = (item: Doc): StoredInvoice => ({ ...Invoice.parse(item), version: Number(item.version ?? 0) });

  async function batchGet(itemKeys: { pk: string; sk: string }[]): Promise<Doc[]> {
    const found: Doc[] = [];
    for (let i = 0; i < itemKeys.length; i += 100) {
      let pending: Record<string, unknown>[] | undefined = itemKeys.slice(i, i + 100);
      for (let attempt = 0; pending && pending.length > 0; attempt++) {
        if (attempt > 5) throw new Error('BatchGet kept returning unprocessed keys');
        const result: BatchGetCommandOutput = await db.send(
          new BatchGetCommand({ RequestItems: { [table]: { Keys: pending } } }),
        );
        found.push(...(result.Responses?.[table] ?? []));
        pending = result.UnprocessedKeys?.[table]?.Keys;
        if (pending?.length) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
      }
    }
    return found;
  }

  return {
    async get(supplierId: string, type: string, invoiceId: string): Promise<StoredInvoice | null> {
      const result = await db.send(
        new GetCommand({ TableName: table, Key: keys.invoice(supplierId, type, invoiceId), ConsistentRead: true }),
      );
      return result.Item ? parseStored(result.Item) : null;
    },

    /** The conformity documents of one acquirer with these ids, as the review rules read them. */
    async conformityDocuments(acquirer: string, refs: readonly ConformityRef[]): Promise<Map<string, ConformityFacts>> {
      const items = await batchGet(refs.map((ref) => keys.conformity(ref.kind, acquirer, ref.documentId)));
      return new Map(
        items.map((item) => [
          String(item.documentId),
          {
            documentId: String(item.documentId),
            kind: item.kind as ConformityKind,
            purchaseOrder: String(item.purchaseOrder),
            issuerTaxId: String(item.issuerTaxId),
            currency: item.currency as ConformityFacts['currency'],
            amount: Number(item.amount),
            claimedBy: typeof item.claimedBy === 'string' ? item.claimedBy : null,
          },
        ]),
      );
    },

    /** The ids among `ids` that are purchase orders of this acquirer issued to this supplier. */
    async purchaseOrdersOf(acquirer: string, supplierId: string, ids: readonly string[]): Promise<Set<string>> {
      const items = await batchGet(ids.map((id) => keys.purchaseOrder(acquirer, id)));
      return new Set(items.filter((item) => item.issuerTaxId === supplierId).map((item) => String(item.id)));
    },

    /** An active employee of the company, or null. */
    async activeEmployee(acquirer: string, id: string): Promise<Employee | null> {
      const result = await db.send(new GetCommand({ TableName: table, Key: keys.employee(acquirer, id) }));
      return result.Item && result.Item.active === true ? Employee.parse(result.Item) : null;
    },

    async officeLocation(taxId: string, id: string): Promise<OfficeLocation | null> {
      const result = await db.send(new GetCommand({ TableName: table, Key: keys.officeLocation(taxId, id) }));
      return result.Item ? OfficeLocation.parse(result.Item) : null;
    },

    /**
     * Writes the invoice, its dashboard counters, its document claims and releases and any created
     * item in one transaction, conditioned on the version read and the allowed statuses.
     */
    async commit(change: InvoiceChange): Promise<StoredInvoice> {
      const me = invoiceKeyOf(change.before);
      const stored: StoredInvoice = { ...change.after, version: change.before.version + 1 };
      const statusValues = Object.fromEntries(change.whileStatusIn.map((status, i) => [`:s${i}`, status]));
      const items: TransactWriteItem[] = [
        {
          Put: {
            TableName: table,
            // No index attributes: the invoice's lists are its list entries (ADR 0042); a Put drops those of an
            // invoice stored before them.
            Item: { ...invoiceTableKey(stored), ...stored },
            ConditionExpression: `#version = :version AND #status IN (${Object.keys(statusValues).join(', ')})`,
            ExpressionAttributeNames: { '#version': 'version', '#status': 'status' },
            ExpressionAttributeValues: { ':version': change.before.version, ...statusValues },
          },
        } as unknown as TransactWriteItem,
      ];
      const claims = change.claim ?? [];
      for (const ref of claims) {
        items.push({
          Update: {
            TableName: table,
            Key: keys.conformity(ref.kind, change.after.client, ref.documentId),
            UpdateExpression: 'SET claimedBy = :me, associatedInvoice = :number',
            ConditionExpression:
              'attribute_exists(pk) AND (attribute_not_exists(claimedBy) OR attribute_type(claimedBy, :null) OR claimedBy = :me)',
            ExpressionAttributeValues: { ':me': me, ':number': change.after.id, ':null': 'NULL' },
          },
        } as unknown as TransactWriteItem);
      }
      for (const ref of change.release ?? []) {
        items.push({
          Update: {
            TableName: table,
            Key: keys.conformity(ref.kind, change.after.client, ref.documentId),
            UpdateExpression: 'SET claimedBy = :none, associatedInvoice = :none',
            ConditionExpression: 'claimedBy = :me',
            ExpressionAttributeValues: { ':me': me, ':none': null },
          },
        } as unknown as TransactWriteItem);
      }
      if (change.create) {
        items.push({
          Put: { TableName: table, Item: change.create, ConditionExpression: 'attribute_not_exists(pk)' },
        } as unknown as TransactWriteItem);
      }
      for (const item of change.alsoPut ?? []) {
        items.push({ Put: { TableName: table, Item: item } } as unknown as TransactWriteItem);
      }
      for (const put of change.putIf ?? []) {
        items.push({
          Put: {
            TableName: table,
            Item: put.item,
            ConditionExpression: put.condition,
            ...(put.names ? { ExpressionAttributeNames: put.names } : {}),
            ...(put.values ? { ExpressionAttributeValues: put.values } : {}),
          },
        } as unknown as TransactWriteItem);
      }
      items.push(...listEntryWrites(table, change.before, change.after));
      items.push(...invoiceCounterUpdates(table, [{ before: change.before, after: change.after }], change.alsoCount));
      // The header's counts of conversations waiting on the supplier or the staff (issue 23).
      items.push(...waitingCounterUpdates(table, change.after, change.before.conversation, change.after.conversation));
      items.push(...(change.alsoWrite ?? []));
      items.push(
        invoiceAuditWrite(
          table,
          stored,
          auditEventOf(change.audit, change.before, change.after, clock().toISOString()),
        ),
      );

      try {
        await db.send(new TransactWriteCommand({ TransactItems: items as never }));
        return stored;
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        const reasons = error.CancellationReasons ?? [];
        const failed = (i: number) => reasons[i]?.Code && reasons[i]?.Code !== 'None';
        const claimIndex = claims.findIndex((_, i) => reasons[i + 1]?.Code === 'ConditionalCheckFailed');
        if (!failed(0) && claimIndex >= 0) {
          throw new ConflictError('ERROR_CONFORMITY_DOCUMENT_NOT_AVAILABLE', {
            documentId: claims[claimIndex]!.documentId,
          });
        }
        throw new InvoiceChangedError();
      }
    },

    /**
     * Records what SUNAT said (or that it could not be asked): certStatus, statusMessage and the
     * `sunat` check, conditioned on the version read, with the index attributes written again as on
     * every change. Status, history and counters do not move: certification is not a status. Items in
     * `alsoPut` (the notice it causes, see outgoing.ts) and the audit record are written in the same transaction.
     */
    async setCertification(
      before: StoredInvoice,
      change: Pick<Invoice, 'certStatus' | 'statusMessage'> & {
        readonly sunat: Invoice['sunat'];
        /** The supplier's CDR judged again beside SUNAT's answer (issue 24); absent: left as it is. */
        readonly supplierCdr?: Invoice['supplierCdr'];
      },
      audit: AuditStamp,
      alsoPut: readonly Record<string, unknown>[] = [],
    ): Promise<StoredInvoice> {
      const stored: StoredInvoice = { ...before, ...change, version: before.version + 1 };
      const event = auditEventOf(audit, before, stored, clock().toISOString());
      const attributes: Doc = {
        certStatus: stored.certStatus,
        statusMessage: stored.statusMessage,
        sunat: stored.sunat ?? null,
        ...(change.supplierCdr !== undefined ? { supplierCdr: change.supplierCdr } : {}),
        version: stored.version,
      };
      const names = Object.keys(attributes);
      const update = {
        TableName: table,
        Key: invoiceTableKey(before),
        // Certification moves no list. An invoice stored before ADR 0042 loses its index attributes here, its
        // copies in the indexes with them (the migration job writes its list entries).
        UpdateExpression: `SET ${names.map((_, i) => `#a${i} = :a${i}`).join(', ')} REMOVE ${LEGACY_INDEX_NAMES}`,
        ConditionExpression: '#version = :expected',
        ExpressionAttributeNames: {
          ...Object.fromEntries(names.map((name, i) => [`#a${i}`, name])),
          '#version': 'version',
        },
        ExpressionAttributeValues: {
          ...Object.fromEntries(names.map((name, i) => [`:a${i}`, attributes[name]])),
          ':expected': before.version,
        },
      };
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              { Update: update },
              ...alsoPut.map((item) => ({ Put: { TableName: table, Item: item } })),
              invoiceAuditWrite(table, stored, event),
            ] as never,
          }),
        );
        return stored;
      } catch (error) {
        if (error instanceof TransactionCanceledException) throw new InvoiceChangedError();
        throw error;
      }
    },

    /** Marks the outbox record as handed to the queue (the MIRO relay re-sends the ones never marked). */
  };
}

export type InvoiceStore = ReturnType<typeof makeInvoiceStore>;
