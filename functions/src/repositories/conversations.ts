import { BatchGetCommand, GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { queryAll } from './query-page.js';
import { updateItem, type TransactItem } from './transaction.js';
import {
  COUNT_LIMITS,
  InvoiceMessage,
  keys,
  waitingCounterDeltas,
  type ConversationSide,
  type ConversationSummary,
  type Invoice,
} from '@portal/shared';

/**
 * The messages of invoices' conversations and the header's counters of conversations waiting on a side.
 * Messages are written in the invoice's own transaction (invoice-store.ts commit, `alsoPut`); the counters move
 * with every commit that moves an invoice's wait (`waitingCounterUpdates`).
 */

/** The item of one message, to put in the invoice's transaction. */
export function messageItem(
  invoice: Pick<Invoice, 'supplierId' | 'type' | 'id'>,
  message: InvoiceMessage,
): Record<string, unknown> & { pk: string; sk: string } {
  return { ...keys.invoiceMessage(invoice.supplierId, invoice.type, invoice.id, message.id), ...message };
}

/** The ADD updates of the header's counters an invoice's change moves (rules/conversations.ts). */
export function waitingCounterUpdates(
  table: string,
  invoice: Pick<Invoice, 'supplierId' | 'client'>,
  before: ConversationSummary | null | undefined,
  after: ConversationSummary | null | undefined,
): TransactItem[] {
  return waitingCounterDeltas(invoice, before, after).map(({ side, owner, delta }) =>
    updateItem(table, {
      Key: keys.waitingConversations(side, owner),
      UpdateExpression: 'ADD #count :delta',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':delta': delta },
    }),
  );
}

export function makeConversations(db: DynamoDBDocumentClient, table: string) {
  return {
    /** The invoice's messages, oldest first (read strongly consistent: a message just posted is there). */
    async messagesOf(invoice: Pick<Invoice, 'supplierId' | 'type' | 'id'>): Promise<InvoiceMessage[]> {
      const pk = keys.invoice(invoice.supplierId, invoice.type, invoice.id).pk;
      return queryAll(
        db,
        {
          TableName: table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk, ':prefix': keys.invoiceMessagePrefix },
          ConsistentRead: true,
        },
        (item) => InvoiceMessage.parse(item),
        (items) => items.length >= COUNT_LIMITS.messagesPerInvoice,
      );
    },

    async message(invoice: Pick<Invoice, 'supplierId' | 'type' | 'id'>, id: string): Promise<InvoiceMessage | null> {
      const result = await db.send(
        new GetCommand({
          TableName: table,
          Key: keys.invoiceMessage(invoice.supplierId, invoice.type, invoice.id, id),
        }),
      );
      return result.Item ? InvoiceMessage.parse(result.Item) : null;
    },

    /** How many invoices' conversations wait on one side, for these owners (RUCs or companies) together. */
    async waitingCount(side: ConversationSide, owners: readonly string[]): Promise<number> {
      const unique = [...new Set(owners)];
      let total = 0;
      for (let i = 0; i < unique.length; i += 100) {
        const result = await db.send(
          new BatchGetCommand({
            RequestItems: {
              [table]: { Keys: unique.slice(i, i + 100).map((owner) => keys.waitingConversations(side, owner)) },
            },
          }),
        );
        for (const item of result.Responses?.[table] ?? []) total += Math.max(0, Number(item.count ?? 0));
      }
      return total;
    },
  };
}

export type Conversations = ReturnType<typeof makeConversations>;
