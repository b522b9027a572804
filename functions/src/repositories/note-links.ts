import { auditEventOf, invoiceAuditWrite, type AuditStamp } from './invoice-audit.js';
import { BatchGetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Invoice, invoiceTableKey, keys, numberTokens, type InvoiceRef, type NoteAdjustments } from '@portal/shared';
import { prefixRange } from './key-range.js';
import { eachItemWithPrefix } from './partition-items.js';
import { checkItem, deleteItem, putItem, updateItem, type TransactItem } from './transaction.js';

/**
 * The links between notes and their originals (docs/data-design.md "Notes and their original"): under the
 * original's key, whether the original is in the portal yet or not, one item per note and a head whose version
 * every linking note moves. Read with one Query (never a Scan); written in the same transactions as the invoices.
 */

export type { InvoiceRef } from '@portal/shared';

/** A note as stored, with the version that guards concurrent writes. */
export type LinkedNote = Invoice & { readonly version: number };

export interface OriginalNotes {
  /** The head's version as read; null when no note ever linked to this key. */
  readonly headVersion: number | null;
  /** The notes linked to the key, oldest received first. */
  readonly notes: readonly LinkedNote[];
}

export function makeNoteLinks(db: DynamoDBDocumentClient, table: string) {
  return {
    /** The notes linked to an original's key and the head's version, read consistently. */
    async notesOf(original: InvoiceRef): Promise<OriginalNotes> {
      const pk = keys.originalNotes(original.supplierId, original.type, original.id);
      const items: Record<string, unknown>[] = [];
      await eachItemWithPrefix(db, table, { pk }, (item) => items.push(item));
      const head = items.find((item) => item.sk === 'HEAD');
      const links = items.filter((item) => String(item.sk).startsWith(keys.originalNotePrefix));
      const notes: LinkedNote[] = [];
      const wanted = links.map((link) => keys.invoice(original.supplierId, String(link.noteType), String(link.noteId)));
      for (let i = 0; i < wanted.length; i += 100) {
        let pending: Record<string, unknown>[] = wanted.slice(i, i + 100);
        for (let attempt = 0; pending.length > 0; attempt++) {
          if (attempt > 5) throw new Error('BatchGet kept returning unprocessed note keys');
          if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
          const result = await db.send(
            new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }),
          );
          for (const item of result.Responses?.[table] ?? [])
            notes.push({ ...Invoice.parse(item), version: Number(item.version ?? 0) });
          pending = result.UnprocessedKeys?.[table]?.Keys ?? [];
        }
      }
      notes.sort((a, b) => a.receivedAt.localeCompare(b.receivedAt) || a.id.localeCompare(b.id));
      return { headVersion: head ? Number(head.version ?? 0) : null, notes };
    },

    /**
     * Whether the company holds a document of this type and series-number from a supplier other than `supplierId`:
     * read from the company's search items of the whole number (shared/src/data/search.ts), never from the invoices.
     */
    async anotherSupplierHolds(client: string, ref: InvoiceRef): Promise<boolean> {
      const token = numberTokens(ref.id)[0]!;
      // The items of exactly this number, as a key range (key-range.ts says why not begins_with).
      const exact = prefixRange(`${token}#`);
      let start: Record<string, unknown> | undefined;
      // An exact series-number at one company is held by a few suppliers at most: three pages are plenty.
      for (let page = 0; page < 3; page++) {
        const result = await db.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
            ExpressionAttributeValues: {
              ':pk': keys.searchPartition('CLIENT', client, token),
              ':from': exact.from,
              ':to': exact.to,
            },
            Limit: 100,
            ExclusiveStartKey: start,
          }),
        );
        if ((result.Items ?? []).some((item) => item.type === ref.type && item.supplierId !== ref.supplierId))
          return true;
        start = result.LastEvaluatedKey;
        if (!start) return false;
      }
      return false;
    },

    /** The link writes of the invoices' transactions, for this table. */
    writes: {
      link: (original: InvoiceRef, note: Invoice) => noteLinkWrites(table, original, note),
      unlink: (original: InvoiceRef, note: InvoiceRef) => noteUnlinkWrite(table, original, note),
      originalAbsent: (original: InvoiceRef) => originalAbsentCheck(table, original),
      headAsRead: (original: InvoiceRef, headVersion: number | null) => notesHeadCheck(table, original, headVersion),
      noteLinked: (note: LinkedNote) => noteLinkedUpdate(table, note),
      originalAmounts: (
        original: InvoiceRef & { readonly version: number },
        amounts: { readonly noteAdjustments: NoteAdjustments; readonly amountToPay: number },
      ) => originalAmountsUpdate(table, original, amounts),
      /** The record, in the original's trail, of what a note's approval did to it (ADR 0030). */
      originalAudit: (original: Invoice, after: Invoice, stamp: AuditStamp, at: string) =>
        invoiceAuditWrite(table, original, auditEventOf(stamp, original, after, at)),
    },
  };
}

export type NoteLinks = ReturnType<typeof makeNoteLinks>;

/*
 * The items the invoices' transactions write for the links (DynamoDB document-client shapes, as invoice-store.ts
 * writes them).
 */

/** A note's link under its original's key and the head it moves. */
export function noteLinkWrites(table: string, original: InvoiceRef, note: Invoice): TransactItem[] {
  const head = keys.originalNotesHead(original.supplierId, original.type, original.id);
  return [
    updateItem(table, {
      Key: head,
      UpdateExpression: 'ADD #version :one',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':one': 1 },
    }),
    putItem(table, {
      Item: {
        ...keys.originalNote(original, note),
        supplierId: note.supplierId,
        noteType: note.type,
        noteId: note.id,
        receivedAt: note.receivedAt,
      },
    }),
  ];
}

/** Drops the link of a replaced note that now modifies another document. */
export function noteUnlinkWrite(table: string, original: InvoiceRef, note: InvoiceRef): TransactItem {
  return deleteItem(table, { Key: keys.originalNote(original, note) });
}

/** The original is still not in the portal when the note that says so commits. */
export function originalAbsentCheck(table: string, original: InvoiceRef): TransactItem {
  return checkItem(table, { Key: invoiceTableKey(original), ConditionExpression: 'attribute_not_exists(pk)' });
}

/** No note linked to the original since its notes were read (the head as read). */
export function notesHeadCheck(table: string, original: InvoiceRef, headVersion: number | null): TransactItem {
  return checkItem(table, {
    Key: keys.originalNotesHead(original.supplierId, original.type, original.id),
    ...(headVersion === null
      ? { ConditionExpression: 'attribute_not_exists(pk)' }
      : {
          ConditionExpression: '#version = :version',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':version': headVersion },
        }),
  });
}

/** A note, as read, learns that its original is in the portal (and its version moves: it was read for this). */
export function noteLinkedUpdate(table: string, note: LinkedNote): TransactItem {
  return updateItem(table, {
    Key: invoiceTableKey(note),
    UpdateExpression: 'SET originalInPortal = :yes, #version = :next',
    ConditionExpression: '#version = :version',
    ExpressionAttributeNames: { '#version': 'version' },
    ExpressionAttributeValues: { ':yes': true, ':next': note.version + 1, ':version': note.version },
  });
}

/** The original, as read, with what its accepted notes now credit and debit and its amount to pay. */
export function originalAmountsUpdate(
  table: string,
  original: InvoiceRef & { readonly version: number },
  amounts: { readonly noteAdjustments: NoteAdjustments; readonly amountToPay: number },
): TransactItem {
  return updateItem(table, {
    Key: invoiceTableKey(original),
    UpdateExpression: 'SET noteAdjustments = :adjustments, amountToPay = :toPay, #version = :next',
    ConditionExpression: '#version = :version',
    ExpressionAttributeNames: { '#version': 'version' },
    ExpressionAttributeValues: {
      ':adjustments': amounts.noteAdjustments,
      ':toPay': amounts.amountToPay,
      ':next': original.version + 1,
      ':version': original.version,
    },
  });
}
