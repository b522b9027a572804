import { QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { BadRequestError, IntakeDocumentResult, TABLE, keys, type IntakeOutcome } from '@portal/shared';
import { putIfAbsent } from './conditional-update.js';
import { eachItemWithPrefix } from './partition-items.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { Page, PageRequest } from './page.js';

/**
 * The results of a zip's documents, one item each beside their batch (keys.intakeResult), keyed by the document's
 * folded base name, and the batch's counters of them.
 */

/** Days a batch and its results stay to be read (then DynamoDB's TTL removes them). */
export const INTAKE_BATCH_DAYS = 30;

export const expiresAtOf = (createdAt: string) => Math.floor(Date.parse(createdAt) / 1000) + INTAKE_BATCH_DAYS * 86_400;

/** The folded base name a result is keyed by (the zip reader groups the files so). */
export const resultKeyOf = (base: string) => base.toLowerCase();

export const COUNTER: Record<IntakeOutcome, 'accepted' | 'alreadyExisting' | 'refused'> = {
  ACCEPTED: 'accepted',
  ALREADY_EXISTS: 'alreadyExisting',
  REFUSED: 'refused',
};

/** Every result item of a batch, with only `projection` of each. */
function eachResult(
  db: DynamoDBDocumentClient,
  table: string,
  batchId: string,
  projection: { expression: string; names?: Record<string, string> },
  visit: (item: Record<string, unknown>) => void,
): Promise<void> {
  const pk = keys.intakeBatch(batchId).pk;
  const prefix = keys.intakeResultPrefix;
  return eachItemWithPrefix(
    db,
    table,
    { pk, prefix, projection: projection.expression, names: projection.names },
    visit,
  );
}

/** The folded base names whose result is recorded: a redelivery skips them. */
export async function recordedKeys(db: DynamoDBDocumentClient, table: string, batchId: string): Promise<Set<string>> {
  const found = new Set<string>();
  await eachResult(db, table, batchId, { expression: 'sk' }, (item) =>
    found.add(String(item.sk).slice(keys.intakeResultPrefix.length)),
  );
  return found;
}

/** The batch's counters counted from its results themselves. */
export async function countResults(
  db: DynamoDBDocumentClient,
  table: string,
  batchId: string,
): Promise<{ processed: number; accepted: number; alreadyExisting: number; refused: number }> {
  const counts = { processed: 0, accepted: 0, alreadyExisting: 0, refused: 0 };
  await eachResult(db, table, batchId, { expression: '#outcome', names: { '#outcome': 'outcome' } }, (item) => {
    counts.processed++;
    counts[COUNTER[item.outcome as IntakeOutcome]]++;
  });
  return counts;
}

/**
 * One document's result, once (false: it was recorded before). The batch's counters follow with `addCounts`,
 * a few results at a time: a crash in between leaves a counter short, which `finish` sets right by counting the
 * results.
 */
export async function recordResult(
  db: DynamoDBDocumentClient,
  table: string,
  batch: { readonly id: string; readonly createdAt: string },
  result: IntakeDocumentResult,
): Promise<boolean> {
  return putIfAbsent(db, table, {
    ...keys.intakeResult(batch.id, resultKeyOf(result.base)),
    ...result,
    [TABLE.ttlAttribute]: expiresAtOf(batch.createdAt),
  });
}

/** Adds newly recorded results to the batch's counters (the progress the screen shows), in one write. */
export async function addCounts(
  db: DynamoDBDocumentClient,
  table: string,
  batchId: string,
  outcomes: Readonly<Record<IntakeOutcome, number>>,
): Promise<void> {
  const counted = (Object.keys(COUNTER) as IntakeOutcome[]).filter((outcome) => outcomes[outcome] > 0);
  if (counted.length === 0) return;
  const total = counted.reduce((sum, outcome) => sum + outcomes[outcome], 0);
  await db.send(
    new UpdateCommand({
      TableName: table,
      Key: keys.intakeBatch(batchId),
      UpdateExpression: `ADD #processed :total, ${counted.map((outcome) => `#${COUNTER[outcome]} :${COUNTER[outcome]}`).join(', ')}`,
      ExpressionAttributeNames: {
        '#processed': 'processed',
        ...Object.fromEntries(counted.map((outcome) => [`#${COUNTER[outcome]}`, COUNTER[outcome]])),
      },
      ExpressionAttributeValues: {
        ':total': total,
        ...Object.fromEntries(counted.map((outcome) => [`:${COUNTER[outcome]}`, outcomes[outcome]])),
      },
    }),
  );
}

/** A page of the results, by base name. */
export async function resultsPage(
  db: DynamoDBDocumentClient,
  table: string,
  batchId: string,
  page: PageRequest,
): Promise<Page<IntakeDocumentResult>> {
  const partition = keys.intakeBatch(batchId).pk;
  const scope = `intake:${partition}`;
  const startKey = decodeCursor(scope, page.cursor, [TABLE.partitionKey, TABLE.sortKey]);
  if (startKey && startKey[TABLE.partitionKey] !== partition) throw new BadRequestError('ERROR_INVALID_CURSOR');
  const result = await db.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': partition, ':prefix': keys.intakeResultPrefix },
      ConsistentRead: true,
      Limit: page.limit,
      ...(startKey ? { ExclusiveStartKey: startKey } : {}),
    }),
  );
  return {
    items: (result.Items ?? []).map((item) => IntakeDocumentResult.parse(item)),
    nextCursor: encodeCursor(scope, result.LastEvaluatedKey as Record<string, string> | undefined),
  };
}
