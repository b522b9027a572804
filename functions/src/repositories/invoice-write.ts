import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  ConflictError,
  invoiceTableKey,
  keys,
  type ConformityKind,
  type CounterDelta,
  type Invoice,
  type InvoiceStatus,
} from '@portal/shared';
import { invoiceCounterUpdates } from './invoice-counters.js';
import { waitingCounterUpdates } from './conversations.js';
import { auditEventOf, invoiceAuditWrite, type AuditStamp } from './invoice-audit.js';
import { Transaction, deleteItem, putItem, type Cancellation, type TransactItem } from './transaction.js';

/** An invoice as stored: the contract's invoice plus the version that guards concurrent writes. */
export type StoredInvoice = Invoice & { readonly version: number };

export interface ConformityRef {
  readonly kind: ConformityKind;
  readonly documentId: string;
}

/** What every change of an invoice is: the invoice as read and as it becomes, when it may be written, and who. */
export interface InvoiceChangeCore {
  readonly before: StoredInvoice;
  readonly after: Invoice;
  /** The write goes through only while the stored invoice is still in one of these statuses. */
  readonly whileStatusIn: readonly InvoiceStatus[];
  /** Who makes the change, what kind, from which call: its audit record is written in the same transaction. */
  readonly audit: AuditStamp;
}

/** A change with the parts of its transaction said at once (InvoiceWrite's steps, in this order). */
export interface InvoiceChange extends InvoiceChangeCore {
  readonly claim?: readonly ConformityRef[];
  readonly release?: readonly ConformityRef[];
  readonly create?: Record<string, unknown> & { pk: string; sk: string };
  readonly alsoPut?: readonly Record<string, unknown>[];
  readonly putIf?: readonly ConditionalPut[];
  readonly alsoWrite?: readonly TransactItem[];
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

/**
 * The list entries a change writes (ADR 0042): those of the lists the invoice leaves are deleted, those of the lists
 * it enters are put; a change that moves no list writes none.
 */
export function listEntryWrites(table: string, before: Invoice | null, after: Invoice): TransactItem[] {
  const keyOf = (entry: { pk: string; sk: string }) => `${entry.pk}\u0000${entry.sk}`;
  const old = before ? keys.invoiceListEntries(before) : [];
  const now = keys.invoiceListEntries(after);
  const kept = new Set(now.map(keyOf));
  const had = new Set(old.map(keyOf));
  return [
    ...old
      .filter((entry) => !kept.has(keyOf(entry)))
      .map((entry) => deleteItem(table, { Key: { pk: entry.pk, sk: entry.sk } })),
    ...now.filter((entry) => !had.has(keyOf(entry))).map((entry) => putItem(table, { Item: entry })),
  ];
}

const CLAIM = 'claim';

/**
 * One change of an invoice as one transaction, built step by step: the invoice's conditional Put (on the version
 * read and the allowed statuses) first, then what the change takes with it (document claims and releases, a created
 * item, queue messages, conditional puts, other writes and counts); `commit` adds its list entries, its counters and
 * its audit record and sends it. A claimed document another invoice holds answers ERROR_CONFORMITY_DOCUMENT_NOT_AVAILABLE;
 * any other refusal is InvoiceChangedError (reload, check again).
 */
export class InvoiceWrite {
  readonly stored: StoredInvoice;
  private readonly tx: Transaction;
  private readonly claimed: ConformityRef[] = [];
  private readonly counts: CounterDelta[] = [];
  /** Other writes, sent after the invoice's own counters. */
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly change: InvoiceChangeCore,
    private readonly now: () => Date,
    table: string,
  ) {
    this.stored = { ...change.after, version: change.before.version + 1 };
    const statusValues = Object.fromEntries(change.whileStatusIn.map((status, i) => [`:s${i}`, status]));
    this.tx = new Transaction(table).put(
      {
        // No index attributes: the invoice's lists are its list entries (ADR 0042); a Put drops those of an
        // invoice stored before them.
        Item: { ...invoiceTableKey(this.stored), ...this.stored },
        ConditionExpression: `#version = :version AND #status IN (${Object.keys(statusValues).join(', ')})`,
        ExpressionAttributeNames: { '#version': 'version', '#status': 'status' },
        ExpressionAttributeValues: { ':version': change.before.version, ...statusValues },
      },
      'invoice',
    );
  }

  /** Conformity documents this invoice takes; each must be free or already its own. */
  claim(refs: readonly ConformityRef[]): this {
    const me = invoiceTableKey(this.change.before).pk;
    for (const ref of refs) {
      this.tx.update(
        {
          Key: keys.conformity(ref.kind, this.change.after.client, ref.documentId),
          UpdateExpression: 'SET claimedBy = :me, associatedInvoice = :number',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(claimedBy) OR attribute_type(claimedBy, :null) OR claimedBy = :me)',
          ExpressionAttributeValues: { ':me': me, ':number': this.change.after.id, ':null': 'NULL' },
        },
        `${CLAIM}${this.claimed.length}`,
      );
      this.claimed.push(ref);
    }
    return this;
  }

  /** Conformity documents this invoice lets go of. */
  release(refs: readonly ConformityRef[]): this {
    const me = invoiceTableKey(this.change.before).pk;
    for (const ref of refs) {
      this.tx.update({
        Key: keys.conformity(ref.kind, this.change.after.client, ref.documentId),
        UpdateExpression: 'SET claimedBy = :none, associatedInvoice = :none',
        ConditionExpression: 'claimedBy = :me',
        ExpressionAttributeValues: { ':me': me, ':none': null },
      });
    }
    return this;
  }

  /** An item created with the change, only if absent (the MIRO outbox record). */
  create(item: Record<string, unknown> & { pk: string; sk: string }): this {
    this.tx.put({ Item: item, ConditionExpression: 'attribute_not_exists(pk)' });
    return this;
  }

  /** Items written with the change as they are (the queue messages it causes, see outgoing.ts). */
  put(items: readonly Record<string, unknown>[]): this {
    for (const item of items) this.tx.put({ Item: item });
    return this;
  }

  /**
   * Items written with the change only while their condition holds (an item as the use case read it, say); if one
   * does not, nothing is written and the change is refused as moved.
   */
  putIf(puts: readonly ConditionalPut[]): this {
    for (const put of puts) {
      this.tx.put({
        Item: put.item,
        ConditionExpression: put.condition,
        ...(put.names ? { ExpressionAttributeNames: put.names } : {}),
        ...(put.values ? { ExpressionAttributeValues: put.values } : {}),
      });
    }
    return this;
  }

  /**
   * Other writes and checks of the same transaction (a note's approval moves its original's amount to pay,
   * note-links.ts); if one fails, the change is refused as moved. They go in after the invoice's own counters.
   */
  write(items: readonly TransactItem[]): this {
    this.pending.push(...items);
    return this;
  }

  private readonly pending: TransactItem[] = [];

  /**
   * Other counts the change moves (the approval's SAP posting counts, ADR 0043), ADDed in the same update as the
   * invoice's own counters when they share an item.
   */
  count(deltas: readonly CounterDelta[]): this {
    this.counts.push(...deltas);
    return this;
  }

  /** Sends the change with its list entries, counters and audit record: the invoice as stored. */
  async commit(): Promise<StoredInvoice> {
    const { before, after, audit } = this.change;
    const table = this.tx.table;
    this.tx
      .add(listEntryWrites(table, before, after))
      .add(invoiceCounterUpdates(table, [{ before, after }], this.counts))
      // The header's counts of conversations waiting on the supplier or the staff.
      .add(waitingCounterUpdates(table, after, before.conversation, after.conversation))
      .add(this.pending)
      .add([invoiceAuditWrite(table, this.stored, auditEventOf(audit, before, after, this.now().toISOString()))]);
    await this.tx.send(this.db, (refused) => this.refused(refused));
    return this.stored;
  }

  private refused(cancellation: Cancellation): Error {
    const taken = this.claimed.findIndex((_, i) => cancellation.code(`${CLAIM}${i}`) === 'ConditionalCheckFailed');
    if (!cancellation.failed('invoice') && taken >= 0) {
      return new ConflictError('ERROR_CONFORMITY_DOCUMENT_NOT_AVAILABLE', {
        documentId: this.claimed[taken]!.documentId,
      });
    }
    return new InvoiceChangedError();
  }
}
