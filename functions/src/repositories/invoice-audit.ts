import { randomUUID } from 'node:crypto';
import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  BadRequestError,
  InvoiceAuditEvent,
  TABLE,
  invoiceChanges,
  keys,
  type Invoice,
  type InvoiceAuditAction,
  type InvoiceAuditActor,
  type InvoiceAuditChange,
  type InvoiceRef,
} from '@portal/shared';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { Page, PageRequest } from './page.js';
import { putItem, type TransactItem } from './transaction.js';

/** What a change says of itself for the trail: who, what kind of change, from which call, and its words. */
export interface AuditStamp {
  readonly actor: InvoiceAuditActor;
  readonly action: InvoiceAuditAction;
  readonly txId: string;
  /** A rejection's reason, a message's text: plain text, as the author wrote it. */
  readonly note?: string | null;
}

/** The record of one change: the fields it touched, from `before` (null: the invoice is new) to `after`. */
export function auditEventOf(
  stamp: AuditStamp,
  before: Invoice | null,
  after: Invoice,
  occurredAt: string,
  extra: readonly InvoiceAuditChange[] = [],
): InvoiceAuditEvent {
  return {
    id: randomUUID(),
    occurredAt,
    action: stamp.action,
    actor: stamp.actor,
    changes: [...invoiceChanges(before, after), ...extra],
    note: stamp.note ?? null,
    txId: stamp.txId,
  };
}

/**
 * The audit record's write, for the transaction of the change it records: created once (a second write of the
 * same record fails the transaction), never updated or deleted — IAM denies both to every function in AWS.
 */
export function invoiceAuditWrite(table: string, invoice: InvoiceRef, event: InvoiceAuditEvent): TransactItem {
  return putItem(table, {
    Item: { ...keys.invoiceAudit(invoice, event.occurredAt, event.id), ...event },
    ConditionExpression: 'attribute_not_exists(pk)',
  });
}

export interface InvoiceAuditRepository {
  /** One invoice's trail, oldest first. */
  list(invoice: InvoiceRef, page: PageRequest): Promise<Page<InvoiceAuditEvent>>;
}

export function makeInvoiceAuditRepository(db: DynamoDBDocumentClient, table: string): InvoiceAuditRepository {
  return {
    async list(invoice, page) {
      const partition = keys.invoiceAuditOf(invoice);
      const scope = `trail:${partition}`;
      const startKey = decodeCursor(scope, page.cursor, [TABLE.partitionKey, TABLE.sortKey]);
      // A cursor names this partition only: one crafted for another invoice's trail is refused.
      if (startKey && startKey[TABLE.partitionKey] !== partition) throw new BadRequestError('ERROR_INVALID_CURSOR');
      const result = await db.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': TABLE.partitionKey },
          ExpressionAttributeValues: { ':pk': partition },
          ConsistentRead: true,
          Limit: page.limit,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      return {
        items: (result.Items ?? []).map((item) => InvoiceAuditEvent.parse(item)),
        nextCursor: encodeCursor(scope, result.LastEvaluatedKey as Record<string, string> | undefined),
      };
    },
  };
}
