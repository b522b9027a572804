import { BatchWriteCommand, GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConflictError, Invoice, invoiceSearchItems, invoiceTableKey, keys } from '@portal/shared';
import { invoiceCounterUpdates } from './invoice-counters.js';
import { auditEventOf, invoiceAuditWrite, type AuditStamp } from './invoice-audit.js';
import type { Logger } from '../observability/logger.js';
import { Transaction, type TransactItem, type TxUpdate } from './transaction.js';

/** An invoice already stored under the same key: what the duplicate rule and a replacement need. */
export type ExistingInvoice = Invoice & { readonly version: number };

/**
 * Another item the intake read changed before its transaction committed (a note's original arrived, a note linked
 * to the invoice, a linked note was approved): the intake reads again and retries. `invoiceMoved`: the rejection
 * being replaced itself changed (its version, or a transaction on it at that moment), so it is read again too.
 */
export class IntakeRaceError extends Error {
  constructor(readonly invoiceMoved = false) {
    super('an item read by the intake changed before its transaction committed');
  }
}

export function makeIntakeStore(db: DynamoDBDocumentClient, table: string, logger?: Pick<Logger, 'warn'>) {
  /**
   * Deletes the search items and list entries of a replaced submission that the new one does not write again.
   * Outside the transaction (both sets do not fit in one): one left behind by a crash names the earlier submission's
   * reception time, and the search and the lists skip it.
   */
  async function deleteStaleItems(replaced: ExistingInvoice, current: Invoice): Promise<void> {
    const keyOf = (item: { pk: string; sk: string }) => `${item.pk}|${item.sk}`;
    const kept = new Set([...invoiceSearchItems(current), ...keys.invoiceListEntries(current)].map(keyOf));
    const stale = [...invoiceSearchItems(replaced), ...keys.invoiceListEntries(replaced)].filter(
      (item) => !kept.has(keyOf(item)),
    );
    try {
      for (let i = 0; i < stale.length; i += 25) {
        let requests = stale.slice(i, i + 25).map((item) => ({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } }));
        for (let attempt = 0; requests.length > 0 && attempt < 5; attempt++) {
          const result = await db.send(new BatchWriteCommand({ RequestItems: { [table]: requests } }));
          requests = (result.UnprocessedItems?.[table] ?? []) as typeof requests;
        }
      }
    } catch (error) {
      logger?.warn('stale search items or list entries of a replaced invoice left behind (both are skipped)', {
        invoice: current.id,
        error: error as Error,
      });
    }
  }

  return {
    async existing(supplierId: string, type: string, invoiceId: string): Promise<ExistingInvoice | null> {
      const result = await db.send(
        new GetCommand({ TableName: table, Key: keys.invoice(supplierId, type, invoiceId), ConsistentRead: true }),
      );
      if (!result.Item) return null;
      return { ...Invoice.parse(result.Item), version: Number(result.Item.version ?? 0) };
    },

    /**
     * Stores a new invoice — or one that replaces a rejection the supplier may retry — with its counters,
     * its search items, the supplier's directory profile and its audit record, in one transaction. Two submissions of the
     * same document at the same moment: one is stored, the other gets ERROR_INVOICE_ALREADY_EXISTS.
     */
    create: (
      invoice: Invoice,
      replacing: ExistingInvoice | null,
      audit: AuditStamp,
      alsoPut: readonly Record<string, unknown>[] = [],
      alsoWrite: readonly TransactItem[] = [],
      options: { readonly supplierInDirectory?: boolean } = {},
    ) => createInvoice(db, table, { invoice, replacing, audit, alsoPut, alsoWrite, options }, deleteStaleItems),
  };
}

export type IntakeStore = ReturnType<typeof makeIntakeStore>;

interface NewInvoice {
  readonly invoice: Invoice;
  readonly replacing: ExistingInvoice | null;
  /** Who submits it, from which call: its audit record is written in the same transaction. */
  readonly audit: AuditStamp;
  readonly alsoPut: readonly Record<string, unknown>[];
  /** Other writes and checks of the same transaction (the links of notes and originals, note-links.ts). */
  readonly alsoWrite: readonly TransactItem[];
  /**
   * The supplier's directory profile was read and is there: its first name stays, so the transaction leaves the
   * item alone (a zip of 500 must not write the same item, and its two directory indexes, 500 times to change
   * nothing). Absent or unknown, the profile is written where missing (`if_not_exists`).
   */
  readonly options: { readonly supplierInDirectory?: boolean };
}

/** The supplier's directory profile, written where missing: the directory keeps the first name a supplier was known by. */
function directoryProfileUpdate(invoice: Invoice): TxUpdate {
  const profile = {
    ...keys.supplierIndexes({ taxId: invoice.supplierId, name: invoice.supplierName }),
    taxId: invoice.supplierId,
    name: invoice.supplierName,
  };
  return {
    Key: keys.supplier(invoice.supplierId),
    UpdateExpression: `SET ${Object.keys(profile)
      .map((name, i) => `#p${i} = if_not_exists(#p${i}, :p${i})`)
      .join(', ')}`,
    ExpressionAttributeNames: Object.fromEntries(Object.keys(profile).map((name, i) => [`#p${i}`, name])),
    ExpressionAttributeValues: Object.fromEntries(Object.values(profile).map((value, i) => [`:p${i}`, value])),
  };
}

/**
 * Stores a new invoice — or one that replaces a rejection the supplier may retry — with its counters,
 * its search items, the supplier's directory profile and its audit record, in one transaction. Two submissions of the
 * same document at the same moment: one is stored, the other gets ERROR_INVOICE_ALREADY_EXISTS.
 */
async function createInvoice(
  db: DynamoDBDocumentClient,
  table: string,
  { invoice, replacing, audit, alsoPut, alsoWrite, options }: NewInvoice,
  deleteStaleItems: (replaced: ExistingInvoice, current: Invoice) => Promise<void>,
): Promise<void> {
  const tx = new Transaction(table).put(
    {
      Item: {
        ...invoiceTableKey(invoice),
        ...invoice,
        // A rejection sent again keeps its conversation (its messages stay under the partition) and its
        // Observada mark: the header's counters of conversations waiting stay right.
        ...(replacing
          ? { observation: replacing.observation ?? null, conversation: replacing.conversation ?? null }
          : {}),
        version: (replacing?.version ?? 0) + 1,
      },
      ...(replacing
        ? {
            ConditionExpression: '#version = :version AND #status = :rejected AND disapprovedWithoutRejection = :yes',
            ExpressionAttributeNames: { '#version': 'version', '#status': 'status' },
            ExpressionAttributeValues: { ':version': replacing.version, ':rejected': 'REJECTED', ':yes': true },
          }
        : { ConditionExpression: 'attribute_not_exists(pk)' }),
    },
    'invoice',
  );
  if (!options.supplierInDirectory) tx.update(directoryProfileUpdate(invoice));
  // Its lists (ADR 0042). A replaced rejection's entries name its earlier reception time: none is written again,
  // and they are deleted after the transaction, as its search items are.
  for (const item of [...alsoPut, ...invoiceSearchItems(invoice), ...keys.invoiceListEntries(invoice)]) {
    tx.put({ Item: item });
  }
  // The replaced rejection leaves its counters; the new invoice enters its own.
  tx.add(invoiceCounterUpdates(table, [{ before: replacing, after: invoice }]));
  // The trail goes on across a resubmission: its record compares the new submission with the rejection.
  tx.add([invoiceAuditWrite(table, invoice, auditEventOf(audit, replacing, invoice, invoice.receivedAt))]);
  tx.add(alsoWrite, 'other');
  await tx.send(db, (refused) => {
    const invoiceCode = refused.code('invoice');
    // The rejection it replaces moved, or another write held it at that moment: read it again.
    if (invoiceCode && (replacing || invoiceCode === 'TransactionConflict')) return new IntakeRaceError(true);
    // The invoice itself is there: a duplicate. Only another item read moved: read again.
    if (!invoiceCode && refused.failed('other')) return new IntakeRaceError();
    return new ConflictError('ERROR_INVOICE_ALREADY_EXISTS');
  });
  if (replacing) await deleteStaleItems(replacing, invoice);
}
