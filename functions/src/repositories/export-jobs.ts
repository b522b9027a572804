import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ExportFormat, ExportList, ExportStatus, TABLE, keys } from '@portal/shared';
import * as z from 'zod/mini';
import { CallerSnapshot } from './caller-snapshot.js';
import { makeConditionalUpdate } from './conditional-update.js';
import { makeDueRecords, type RecordKey } from './due-records.js';
import { outgoingItem, type OutgoingMessage } from './outgoing.js';
import { eachItemWithPrefix } from './partition-items.js';
import { Transaction } from './transaction.js';
import { postponeLapsed, releaseLease, renewLease, type HeldJob } from './job-leases.js';

/** An export job as stored under its owner (keys.exportJob). */
export const StoredExportJob = z.object({
  id: z.string(),
  userId: z.string(),
  list: ExportList,
  format: ExportFormat,
  /** The list route's query, as strings (the worker parses them with the same schema). */
  filters: z.record(z.string(), z.string()),
  /** Who asked: the worker lists as this caller would. */
  requester: CallerSnapshot,
  status: ExportStatus,
  rows: z.number(),
  total: z.nullable(z.number()),
  /** Deliveries that started writing the file; each starts it again from the first row. */
  attempts: z.number(),
  key: z.string(),
  fileName: z.string(),
  createdAt: z.string(),
  startedAt: z.nullable(z.string()),
  finishedAt: z.nullable(z.string()),
  error: z.nullable(z.string()),
  /** The run that holds the job and until when, renewed while it writes; absent once it ends (and before). */
  leaseOwner: z.optional(z.string()),
  leaseUntil: z.optional(z.string()),
  /** When a run last took over a job whose worker had stopped (its lease lapsed): the list says «reanudada». */
  resumedAt: z._default(z.nullable(z.string()), null),
});
export type StoredExportJob = z.infer<typeof StoredExportJob>;

/** Days a job's item stays (its file goes after one, by the bucket's lifecycle rule). */
const JOB_DAYS = 2;

const NAMES = { '#status': 'status', '#rows': 'rows', '#error': 'error' };

const parse = (item: Record<string, unknown> | undefined) =>
  item ? StoredExportJob.parse({ ...item, filters: item.filters ?? {} }) : null;

/** The job and its queue message, in one transaction (the outbox: the message is never lost). */
async function createJob(
  db: DynamoDBDocumentClient,
  table: string,
  job: StoredExportJob,
  message: OutgoingMessage,
): Promise<void> {
  const expiresAt = Math.floor(Date.parse(job.createdAt) / 1000) + JOB_DAYS * 86_400;
  await new Transaction(table)
    .put({
      Item: { ...keys.exportJob(job.userId, job.id), ...job, [TABLE.ttlAttribute]: expiresAt },
      ConditionExpression: 'attribute_not_exists(pk)',
    })
    .put({ Item: outgoingItem(message) })
    .send(db, (refused) => refused.error);
}

/** The owner's job; null for an id it does not own (or none). */
async function getJob(
  db: DynamoDBDocumentClient,
  table: string,
  userId: string,
  id: string,
): Promise<StoredExportJob | null> {
  const result = await db.send(
    new GetCommand({ TableName: table, Key: keys.exportJob(userId, id), ConsistentRead: true }),
  );
  return parse(result.Item);
}

/** The owner's jobs created since `since` (ISO) that are still queued or running. */
async function unfinishedJobs(
  db: DynamoDBDocumentClient,
  table: string,
  userId: string,
  since: string,
): Promise<StoredExportJob[]> {
  const found: StoredExportJob[] = [];
  const query = {
    pk: keys.exportJob(userId, '').pk,
    prefix: keys.exportJobPrefix,
    filter: '#status IN (:queued, :running) AND createdAt >= :since',
    names: { '#status': 'status' },
    values: { ':queued': 'QUEUED', ':running': 'RUNNING', ':since': since },
  };
  await eachItemWithPrefix(db, table, query, (item) => found.push(parse(item)!));
  return found;
}

export function makeExportJobRepository(db: DynamoDBDocumentClient, table: string) {
  const key = (userId: string, id: string) => keys.exportJob(userId, id);
  const leases = makeDueRecords<Record<string, unknown> & RecordKey>(db, table, keys.jobLeases);

  // 'status' and 'rows' are reserved words.
  const updateItem = makeConditionalUpdate(db, table, NAMES);
  const update = (
    job: Pick<StoredExportJob, 'userId' | 'id'>,
    expression: string,
    values: Record<string, unknown>,
    condition?: string,
  ) => updateItem(key(job.userId, job.id), expression, values, condition);
  /** Ends a job with these `sets`: finished at `:now`, out of the lease and of the sweeper's index. */
  const end = (job: StoredExportJob, sets: string, values: Record<string, unknown>, condition: string) =>
    update(job, `SET ${sets}, finishedAt = :now REMOVE leaseOwner, leaseUntil, gsi1pk, gsi1sk`, values, condition);
  /** A running export's lease: its place in the leases index names its owner's partition and its own sort key. */
  const held = (job: Pick<StoredExportJob, 'userId' | 'id'>): HeldJob => {
    const { pk, sk } = key(job.userId, job.id);
    return {
      update: (expression, values, condition) => update(job, expression, values, condition),
      leaseSortKey: (at) => `${at}#${pk}#${sk}`,
      working: { condition: '#status = :running', values: { ':running': 'RUNNING' } },
    };
  };

  return {
    create: (job: StoredExportJob, message: OutgoingMessage) => createJob(db, table, job, message),
    get: (userId: string, id: string) => getJob(db, table, userId, id),
    unfinished: (userId: string, since: string) => unfinishedJobs(db, table, userId, since),

    /**
     * Takes the job for the run `owner` until `until`, from its first row: a QUEUED one, or a RUNNING one whose lease
     * lapsed by `now` (its worker stopped: the take-over is a resume). 'BUSY' when another run holds it, 'ENDED' when
     * it is READY or FAILED.
     */
    async start(
      job: StoredExportJob,
      owner: string,
      now: string,
      until: string,
    ): Promise<'STARTED' | 'RESUMED' | 'BUSY' | 'ENDED'> {
      const { pk, sk } = key(job.userId, job.id);
      const lease = {
        ':running': 'RUNNING',
        ':owner': owner,
        ':now': now,
        ':until': until,
        ':one': 1,
        ':zero': 0,
        ':leases': keys.jobLeases,
        ':leaseSk': `${until}#${pk}#${sk}`,
      };
      const hold =
        'SET #status = :running, #rows = :zero, leaseOwner = :owner, leaseUntil = :until, gsi1pk = :leases, ' +
        'gsi1sk = :leaseSk';
      const fresh = `${hold}, startedAt = :now ADD attempts :one`;
      if (await update(job, fresh, { ...lease, ':queued': 'QUEUED' }, '#status = :queued')) return 'STARTED';
      // A job RUNNING without a lease was left so by a worker of before the leases: lapsed too.
      const lapsed = '#status = :running AND (attribute_not_exists(leaseUntil) OR leaseUntil <= :now)';
      if (await update(job, `${hold}, resumedAt = :now ADD attempts :one`, lease, lapsed)) return 'RESUMED';
      const current = await getJob(db, table, job.userId, job.id);
      return current && (current.status === 'QUEUED' || current.status === 'RUNNING') ? 'BUSY' : 'ENDED';
    },

    /** Keeps the run's lease until `until`: false when the run no longer holds it. */
    renew: (job: StoredExportJob, owner: string, until: string) => renewLease(held(job), owner, until),

    /** Lets go of the run's lease at once (a run that failed), so the next try need not wait for it to lapse. */
    release: (job: StoredExportJob, owner: string, now: string) => releaseLease(held(job), owner, now),

    /** Jobs whose lease lapsed before `now` (their worker stopped), soonest first. */
    async lapsed(now: string, limit: number): Promise<StoredExportJob[]> {
      // The partition holds every kind of long job: an export's key is its owner's USER# and its EXPORT#.
      const held = (await leases.due(new Date(now), limit)).filter((item) => item.sk.startsWith(keys.exportJobPrefix));
      const jobs = await Promise.all(held.map((item) => leases.get(item)));
      return jobs
        .map((item) => parse(item ?? undefined))
        .filter((job): job is StoredExportJob => job?.status === 'RUNNING');
    },

    /** Moves a lapsed job's place in the sweeper's index to `until`, its lease left as it is: false if it moved. */
    postpone: (job: StoredExportJob, until: string) => postponeLapsed(held(job), job.leaseUntil ?? '', until),

    async progress(job: StoredExportJob, rows: number): Promise<void> {
      await update(job, 'SET #rows = :rows', { ':rows': rows, ':running': 'RUNNING' }, '#status = :running');
    },

    async finish(job: StoredExportJob, rows: number, now: string): Promise<boolean> {
      return end(
        job,
        '#status = :ready, #rows = :rows',
        { ':ready': 'READY', ':rows': rows, ':now': now, ':running': 'RUNNING' },
        '#status = :running',
      );
    },

    async fail(job: StoredExportJob, error: string, now: string): Promise<void> {
      await end(
        job,
        '#status = :failed, #error = :error',
        { ':failed': 'FAILED', ':error': error, ':now': now, ':ready': 'READY' },
        '#status <> :ready',
      );
    },
  };
}

export type ExportJobRepository = ReturnType<typeof makeExportJobRepository>;
