import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  GetCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { auditEventOf, invoiceAuditWrite, type AuditStamp } from './invoice-audit.js';
import {
  Employee,
  Invoice,
  OfficeLocation,
  keys,
  invoiceTableKey,
  type ConformityFacts,
  type InvoiceRef,
  type ConformityKind,
} from '@portal/shared';
import {
  InvoiceChangedError,
  InvoiceWrite,
  type ConformityRef,
  type InvoiceChange,
  type InvoiceChangeCore,
  type StoredInvoice,
} from './invoice-write.js';
import { Transaction, putItem, type TxUpdate } from './transaction.js';

export {
  InvoiceChangedError,
  InvoiceWrite,
  listEntryWrites,
  type ConditionalPut,
  type ConformityRef,
  type InvoiceChange,
  type InvoiceChangeCore,
  type StoredInvoice,
} from './invoice-write.js';

type Doc = Record<string, unknown>;

const LEGACY_INDEX_NAMES = keys.legacyInvoiceIndexAttributes.join(', ');

/** The invoice's partition key, `INVOICE#{supplierId}#{type}#{id}`: what a claimed document says holds it. */
export function invoiceKeyOf(invoice: InvoiceRef): string {
  return invoiceTableKey(invoice).pk;
}

/** Items by key, 100 keys per BatchGet, what DynamoDB leaves unprocessed asked again. */
async function batchGet(
  db: DynamoDBDocumentClient,
  table: string,
  itemKeys: { pk: string; sk: string }[],
): Promise<Doc[]> {
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

/** The conformity documents of one acquirer with these ids, as the review rules read them. */
async function conformityDocuments(
  db: DynamoDBDocumentClient,
  table: string,
  acquirer: string,
  refs: readonly ConformityRef[],
): Promise<Map<string, ConformityFacts>> {
  const items = await batchGet(
    db,
    table,
    refs.map((ref) => keys.conformity(ref.kind, acquirer, ref.documentId)),
  );
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
}

export function makeInvoiceStore(db: DynamoDBDocumentClient, table: string, clock: () => Date = () => new Date()) {
  const parseStored = (item: Doc): StoredInvoice => ({ ...Invoice.parse(item), version: Number(item.version ?? 0) });

  return {
    async get(supplierId: string, type: string, invoiceId: string): Promise<StoredInvoice | null> {
      const result = await db.send(
        new GetCommand({ TableName: table, Key: keys.invoice(supplierId, type, invoiceId), ConsistentRead: true }),
      );
      return result.Item ? parseStored(result.Item) : null;
    },

    /** The conformity documents of one acquirer with these ids, as the review rules read them. */
    conformityDocuments: (acquirer: string, refs: readonly ConformityRef[]) =>
      conformityDocuments(db, table, acquirer, refs),

    /** The ids among `ids` that are purchase orders of this acquirer issued to this supplier. */
    async purchaseOrdersOf(acquirer: string, supplierId: string, ids: readonly string[]): Promise<Set<string>> {
      const items = await batchGet(
        db,
        table,
        ids.map((id) => keys.purchaseOrder(acquirer, id)),
      );
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
     * A change of the invoice as one transaction, built step by step (InvoiceWrite): conditioned on the version read
     * and the allowed statuses, with its counters, list entries and audit record.
     */
    begin: (change: InvoiceChangeCore) => new InvoiceWrite(db, change, clock, table),

    /** The same change with its parts said at once (`begin` and its steps, in their order). */
    commit(change: InvoiceChange): Promise<StoredInvoice> {
      const write = new InvoiceWrite(db, change, clock, table).claim(change.claim ?? []).release(change.release ?? []);
      if (change.create) write.create(change.create);
      return write
        .put(change.alsoPut ?? [])
        .putIf(change.putIf ?? [])
        .write(change.alsoWrite ?? [])
        .count(change.alsoCount ?? [])
        .commit();
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
        /** The supplier's CDR judged again beside SUNAT's answer; absent: left as it is. */
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
      const update: TxUpdate = {
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
      await new Transaction(table)
        .update(update)
        .add(alsoPut.map((item) => putItem(table, { Item: item })))
        .add([invoiceAuditWrite(table, stored, event)])
        .send(db, () => new InvoiceChangedError());
      return stored;
    },
  };
}

export type InvoiceStore = ReturnType<typeof makeInvoiceStore>;
