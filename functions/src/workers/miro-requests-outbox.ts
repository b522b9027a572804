import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys, type ConformityKind } from '@portal/shared';
import type { SapDocument } from '../adapters/sap.js';

/**
 * PENDING (written with the approval) → POSTING (one delivery holds a lease while it calls SAP) →
 * POSTED (SAP's document stored). A failed attempt goes back to PENDING; the last one leaves FAILED.
 */
export type OutboxState = 'PENDING' | 'POSTING' | 'POSTED' | 'FAILED';

export interface MiroOutboxRecord {
  readonly pk: string;
  readonly sk: string;
  readonly state: OutboxState;
  readonly idempotencyKey: string;
  readonly supplierId: string;
  readonly invoiceType: string;
  readonly invoiceId: string;
  readonly client: string;
  readonly attempts?: number;
  readonly postingUntil?: string | null;
  readonly leaseOwner?: string | null;
  readonly sapDocument?: SapDocument | null;
  readonly postedAt?: string | null;
  readonly notifiedAt?: string | null;
  readonly lastError?: string | null;
}

/** What SAP's MIRO line needs of an HES or MIGO. */
export interface ConformityLine {
  readonly kind: ConformityKind;
  readonly documentId: string;
  readonly purchaseOrder: string;
  readonly fiscalYear: string;
  readonly amount: number;
}

type Key = { pk: string; sk: string };

const conditionFailed = (error: unknown) => error instanceof ConditionalCheckFailedException;

/** The MIRO outbox records and the conformity documents the MIRO worker reads. */
export function makeMiroOutbox(db: DynamoDBDocumentClient, table: string) {
  async function update(input: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName'>): Promise<boolean> {
    try {
      // Callers may hand the whole record as its key: only pk and sk go to DynamoDB.
      const { pk, sk } = input.Key as Key;
      await db.send(new UpdateCommand({ TableName: table, ...input, Key: { pk, sk } }));
      return true;
    } catch (error) {
      if (conditionFailed(error)) return false;
      throw error;
    }
  }

  return {
    async get(key: Key): Promise<MiroOutboxRecord | null> {
      const result = await db.send(
        new GetCommand({ TableName: table, Key: { pk: key.pk, sk: key.sk }, ConsistentRead: true }),
      );
      return (result.Item as MiroOutboxRecord | undefined) ?? null;
    },

    /**
     * Takes the record for one posting attempt: only from PENDING or FAILED, or from POSTING whose
     * lease ran out (its worker died). False when another delivery holds it or it is POSTED.
     */
    async claim(key: Key, lease: { owner: string; now: Date; until: Date }): Promise<boolean> {
      return update({
        Key: key,
        UpdateExpression:
          'SET #state = :posting, postingUntil = :until, leaseOwner = :owner, lastAttemptAt = :now ADD attempts :one',
        ConditionExpression:
          'attribute_exists(pk) AND (#state IN (:pending, :failed) OR (#state = :posting AND postingUntil < :now))',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':posting': 'POSTING',
          ':pending': 'PENDING',
          ':failed': 'FAILED',
          ':until': lease.until.toISOString(),
          ':now': lease.now.toISOString(),
          ':owner': lease.owner,
          ':one': 1,
        },
      });
    },

    /** Gives the lease back after an attempt that failed while its worker lived on. */
    async release(key: Key, owner: string, error: string): Promise<void> {
      await update({
        Key: key,
        UpdateExpression: 'SET #state = :pending, postingUntil = :none, leaseOwner = :none, lastError = :error',
        ConditionExpression: '#state = :posting AND leaseOwner = :owner',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':pending': 'PENDING',
          ':posting': 'POSTING',
          ':owner': owner,
          ':none': null,
          ':error': error,
        },
      });
    },

    /** POSTED with SAP's document; false if it already was (SAP answered the same document to both). */
    async markPosted(key: Key, document: SapDocument, at: string): Promise<boolean> {
      return update({
        Key: key,
        UpdateExpression:
          'SET #state = :posted, sapDocument = :document, postedAt = :at, postingUntil = :none, leaseOwner = :none, lastError = :none',
        ConditionExpression: 'attribute_exists(pk) AND #state <> :posted',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':posted': 'POSTED', ':document': document, ':at': at, ':none': null },
      });
    },

    async markNotified(key: Key, at: string): Promise<void> {
      await update({
        Key: key,
        UpdateExpression: 'SET notifiedAt = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': at },
      });
    },

    /** FAILED after the last receive, unless a concurrent delivery posted it meanwhile. */
    async markFailed(key: Key, error: string, at: string): Promise<boolean> {
      return update({
        Key: key,
        UpdateExpression:
          'SET #state = :failed, lastError = :error, failedAt = :at, postingUntil = :none, leaseOwner = :none',
        ConditionExpression: 'attribute_exists(pk) AND #state <> :posted',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':failed': 'FAILED',
          ':posted': 'POSTED',
          ':error': error,
          ':at': at,
          ':none': null,
        },
      });
    },

    /** The HES and MIGO of an acquirer with these ids, as the MIRO lines need them. */
    async conformityLines(
      acquirer: string,
      refs: readonly { kind: ConformityKind; documentId: string }[],
    ): Promise<ConformityLine[]> {
      if (refs.length === 0) return [];
      const result = await db.send(
        new BatchGetCommand({
          RequestItems: {
            [table]: {
              Keys: refs.map((ref) => keys.conformity(ref.kind, acquirer, ref.documentId)),
              ConsistentRead: true,
            },
          },
        }),
      );
      if (Object.keys(result.UnprocessedKeys ?? {}).length > 0) throw new Error('conformity documents not all read');
      return (result.Responses?.[table] ?? []).map((item) => ({
        kind: item.kind as ConformityKind,
        documentId: String(item.documentId),
        purchaseOrder: String(item.purchaseOrder),
        fiscalYear: String(item.fiscalYear),
        amount: Number(item.amount),
      }));
    },
  };
}

export type MiroOutbox = ReturnType<typeof makeMiroOutbox>;
