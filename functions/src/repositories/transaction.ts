import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  TransactWriteCommand,
  type DynamoDBDocumentClient,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';

/** One item of a TransactWriteItems in the document client's shapes (plain values, not AttributeValues). */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

type Shape<K extends keyof TransactItem> = Omit<NonNullable<TransactItem[K]>, 'TableName'>;
/** A Put, Update, ConditionCheck or Delete of a transaction, without its table. */
export type TxPut = Shape<'Put'>;
export type TxUpdate = Shape<'Update'>;
export type TxCheck = Shape<'ConditionCheck'>;
export type TxDelete = Shape<'Delete'>;

export const putItem = (table: string, input: TxPut): TransactItem => ({ Put: { TableName: table, ...input } });
export const updateItem = (table: string, input: TxUpdate): TransactItem => ({
  Update: { TableName: table, ...input },
});
export const checkItem = (table: string, input: TxCheck): TransactItem => ({
  ConditionCheck: { TableName: table, ...input },
});
export const deleteItem = (table: string, input: TxDelete): TransactItem => ({
  Delete: { TableName: table, ...input },
});

/** Why a transaction was cancelled, item by item: the codes DynamoDB gave, read by the labels the items were added with. */
export class Cancellation {
  constructor(
    readonly error: TransactionCanceledException,
    private readonly labels: readonly (string | undefined)[],
  ) {}

  /** Every item's code ('None' for an item that did not fail). */
  get codes(): (string | undefined)[] {
    return (this.error.CancellationReasons ?? []).map((reason) => reason.Code);
  }

  /** The code of the first item with this label that failed; null when none did. */
  code(label: string): string | null {
    const codes = this.codes;
    for (const [i, each] of this.labels.entries()) {
      const code = codes[i];
      if (each === label && code && code !== 'None') return code;
    }
    return null;
  }

  failed(label: string): boolean {
    return this.code(label) !== null;
  }
}

/**
 * One TransactWriteItems built item by item (typed Put, Update, ConditionCheck, Delete, all on one table), each
 * with an optional label that names it when the transaction is cancelled.
 */
export class Transaction {
  private readonly entries: { item: TransactItem; label?: string }[] = [];

  constructor(readonly table: string) {}

  put(input: TxPut, label?: string): this {
    return this.add([putItem(this.table, input)], label);
  }

  update(input: TxUpdate, label?: string): this {
    return this.add([updateItem(this.table, input)], label);
  }

  check(input: TxCheck, label?: string): this {
    return this.add([checkItem(this.table, input)], label);
  }

  delete(input: TxDelete, label?: string): this {
    return this.add([deleteItem(this.table, input)], label);
  }

  /** Items built elsewhere (counters, note links, the audit record), under one label. */
  add(items: readonly TransactItem[], label?: string): this {
    for (const item of items) this.entries.push(label === undefined ? { item } : { item, label });
    return this;
  }

  get items(): TransactItem[] {
    return this.entries.map((entry) => entry.item);
  }

  /** Sends the transaction: null once written, the cancellation when DynamoDB refused it (nothing written). */
  async trySend(db: Pick<DynamoDBDocumentClient, 'send'>): Promise<Cancellation | null> {
    try {
      await db.send(new TransactWriteCommand({ TransactItems: this.items }));
      return null;
    } catch (error) {
      // By name as well: a client stand-in (a test's, the local stage's) may throw its own object of that name.
      const cancelled =
        error instanceof TransactionCanceledException ||
        (error as { name?: unknown } | null)?.name === 'TransactionCanceledException';
      if (!cancelled) throw error;
      return new Cancellation(
        error as TransactionCanceledException,
        this.entries.map((entry) => entry.label),
      );
    }
  }

  /** Sends the transaction; a cancellation throws what `refused` makes of it. */
  async send(db: Pick<DynamoDBDocumentClient, 'send'>, refused: (cancellation: Cancellation) => Error): Promise<void> {
    const cancellation = await this.trySend(db);
    if (cancellation) throw refused(cancellation);
  }
}
