import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { INBOUND_MAIL, InboundMailMessage, keys } from '@portal/shared';
import type { DocumentResult, StoredAnswer } from '../mail/answers.js';
import {
  mailResultKeyOf,
  type MailAbout,
  type MailJobStore,
  type MailOutcome,
  type MailRecord,
  type MailStart,
} from '../mail/mail-job.js';
import { makeConditionalUpdate, putIfAbsent, updateIfHolds } from './conditional-update.js';
import { makeDueRecords, type RecordKey } from './due-records.js';
import { eachItemWithPrefix } from './partition-items.js';
import { postponeLapsed, releaseLease, renewLease, type HeldJob } from './job-leases.js';

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

// 'state' and 'message' are DynamoDB reserved words (and 'outcome' may become one): every attribute goes by a name.
const NAMES = {
  '#state': 'state',
  '#outcome': 'outcome',
  '#answer': 'answer',
  '#message': 'message',
  '#about': 'about',
};

function recordOf(messageId: string, item: Record<string, unknown>): MailRecord {
  const message = InboundMailMessage.safeParse(item.message);
  return {
    messageId,
    // A record written before the leases holds only its outcome: it is one that ended.
    state: item.state === 'PROCESSING' ? 'PROCESSING' : 'DONE',
    outcome: (item.outcome as MailOutcome | undefined) ?? null,
    answer: (item.answer as StoredAnswer | undefined) ?? null,
    answered: item.answered === true,
    attempts: typeof item.attempts === 'number' ? item.attempts : 0,
    leaseUntil: typeof item.leaseUntil === 'string' ? item.leaseUntil : null,
    resumedAt: typeof item.resumedAt === 'string' ? item.resumedAt : null,
    message: message.success ? message.data : null,
    about: (item.about as MailAbout | undefined) ?? null,
  };
}

type MailUpdate = (
  messageId: string,
  expression: string,
  values: Record<string, unknown>,
  condition: string,
) => Promise<boolean>;

const leaseSortKey = (messageId: string, until: string) => `${until}#${keys.inboundMessage(messageId).pk}`;

async function getRecord(db: DynamoDBDocumentClient, table: string, messageId: string): Promise<MailRecord | null> {
  const { Item } = await db.send(
    new GetCommand({ TableName: table, Key: keys.inboundMessage(messageId), ConsistentRead: true }),
  );
  return Item ? recordOf(messageId, Item) : null;
}

/** Takes the message for the run `owner`: a new record, or a resume of one whose lease lapsed. */
async function startRecord(
  { db, table, update }: { db: DynamoDBDocumentClient; table: string; update: MailUpdate },
  message: InboundMailMessage,
  owner: string,
  now: Date,
  until: string,
): Promise<MailStart> {
  const { messageId } = message;
  const hold = { leaseOwner: owner, leaseUntil: until, gsi1pk: keys.jobLeases, gsi1sk: leaseSortKey(messageId, until) };
  const created = await putIfAbsent(db, table, {
    ...keys.inboundMessage(messageId),
    state: 'PROCESSING',
    message,
    attempts: 1,
    ...hold,
    createdAt: now.toISOString(),
    expiresAt: epochSeconds(now) + INBOUND_MAIL.processedRecordDays * 86_400,
  });
  if (created) return { taken: 'STARTED', attempts: 1 };
  // A record whose lease lapsed (its run stopped), or one left by a run of before the leases: a resume.
  const resumed = await update(
    messageId,
    'SET leaseOwner = :owner, leaseUntil = :until, gsi1pk = :leases, gsi1sk = :leaseSk, resumedAt = :now ' +
      'ADD attempts :one',
    {
      ':owner': owner,
      ':until': until,
      ':leases': keys.jobLeases,
      ':leaseSk': hold.gsi1sk,
      ':now': now.toISOString(),
      ':one': 1,
      ':processing': 'PROCESSING',
    },
    '#state = :processing AND (attribute_not_exists(leaseUntil) OR leaseUntil <= :now)',
  );
  const record = await getRecord(db, table, messageId);
  if (resumed) return { taken: 'RESUMED', attempts: record?.attempts ?? 1 };
  return { taken: record?.state === 'PROCESSING' ? 'BUSY' : 'ENDED', attempts: record?.attempts ?? 0 };
}

/** The outcome and its answer, while the run (or the lease as read) still holds the message. */
async function completeRecord(
  update: MailUpdate,
  messageId: string,
  holder: { readonly owner: string } | { readonly leaseUntil: string | null },
  outcome: MailOutcome,
  answer: StoredAnswer | null,
  now: Date,
): Promise<boolean> {
  const values: Record<string, unknown> = {
    ':done': 'DONE',
    ':outcome': outcome,
    ':answer': answer,
    ':false': false,
    ':now': now.toISOString(),
    ':processing': 'PROCESSING',
  };
  let held: string;
  if ('owner' in holder) {
    values[':owner'] = holder.owner;
    held = 'leaseOwner = :owner';
  } else if (holder.leaseUntil === null) {
    held = 'attribute_not_exists(leaseUntil)';
  } else {
    values[':leaseUntil'] = holder.leaseUntil;
    held = 'leaseUntil = :leaseUntil';
  }
  // The queue message is no longer needed once the outcome is known: the raw copy is deleted next.
  return update(
    messageId,
    'SET #state = :done, #outcome = :outcome, #answer = :answer, answered = :false, processedAt = :now ' +
      'REMOVE leaseOwner, leaseUntil, gsi1pk, gsi1sk',
    values,
    `#state = :processing AND ${held}`,
  );
}

/** One more answer to `sender` this hour, unless the hour's are spent (a conditional counter). */
async function takeAnswer(db: DynamoDBDocumentClient, table: string, sender: string, now: Date): Promise<boolean> {
  const hour = now.toISOString().slice(0, 13);
  return updateIfHolds(db, table, {
    Key: keys.mailAnswers(sender, hour),
    UpdateExpression: 'ADD answers :one SET expiresAt = if_not_exists(expiresAt, :expires)',
    ConditionExpression: 'attribute_not_exists(answers) OR answers < :max',
    ExpressionAttributeValues: {
      ':one': 1,
      ':max': INBOUND_MAIL.maxRefusalAnswersPerHour,
      ':expires': epochSeconds(now) + 2 * 3600,
    },
  });
}

/**
 * What the e-mail intake keeps (docs/adr/0035-mail-intake.md, docs/intake-channels.md#lease-and-resume): one small
 * record per received message (its queue message and lease while a run works on it, then its outcome and its answer
 * until sent), each document's result beside it, and a counter of answers per sender and hour, all expiring.
 */
export function makeInboundMailRepository(db: DynamoDBDocumentClient, table: string) {
  const leases = makeDueRecords<RecordKey>(db, table, keys.jobLeases);

  const updateItem = makeConditionalUpdate(db, table, NAMES);
  const update: MailUpdate = (messageId, expression, values, condition) =>
    updateItem(keys.inboundMessage(messageId), expression, values, condition);
  const held = (messageId: string): HeldJob => ({
    update: (expression, values, condition) => update(messageId, expression, values, condition),
    leaseSortKey: (at) => leaseSortKey(messageId, at),
    working: { condition: '#state = :processing', values: { ':processing': 'PROCESSING' } },
  });

  const store = {
    get: (messageId: string) => getRecord(db, table, messageId),

    start: (message: InboundMailMessage, owner: string, now: Date, until: string) =>
      startRecord({ db, table, update }, message, owner, now, until),

    renew: (messageId: string, owner: string, until: string) => renewLease(held(messageId), owner, until),
    release: (messageId: string, owner: string, now: string) => releaseLease(held(messageId), owner, now),

    async describe(messageId: string, owner: string, about: MailAbout): Promise<boolean> {
      return update(
        messageId,
        'SET #about = :about',
        { ':about': about, ':owner': owner, ':processing': 'PROCESSING' },
        '#state = :processing AND leaseOwner = :owner',
      );
    },

    async results(messageId: string): Promise<Map<string, DocumentResult>> {
      const found = new Map<string, DocumentResult>();
      const prefix = keys.inboundMessageResultPrefix;
      await eachItemWithPrefix(db, table, { pk: keys.inboundMessage(messageId).pk, prefix }, (item) =>
        found.set(String(item.sk).slice(prefix.length), item.result as DocumentResult),
      );
      return found;
    },

    async record(messageId: string, result: DocumentResult, now: Date): Promise<boolean> {
      return putIfAbsent(db, table, {
        ...keys.inboundMessageResult(messageId, mailResultKeyOf(result.base)),
        result,
        recordedAt: now.toISOString(),
        expiresAt: epochSeconds(now) + INBOUND_MAIL.processedRecordDays * 86_400,
      });
    },

    complete: (
      messageId: string,
      holder: { readonly owner: string } | { readonly leaseUntil: string | null },
      outcome: MailOutcome,
      answer: StoredAnswer | null,
      now: Date,
    ) => completeRecord(update, messageId, holder, outcome, answer, now),

    async markAnswered(messageId: string): Promise<void> {
      // The answer's text is not needed any more: only that it went.
      await db.send(
        new UpdateCommand({
          TableName: table,
          Key: keys.inboundMessage(messageId),
          UpdateExpression: 'SET answered = :true REMOVE #answer',
          ExpressionAttributeNames: { '#answer': 'answer' },
          ExpressionAttributeValues: { ':true': true },
        }),
      );
    },

    /** Messages whose lease lapsed before `now` (their run stopped), soonest first. */
    async lapsed(now: string, limit: number): Promise<MailRecord[]> {
      // The partition holds every kind of long job: a message's key is its INBOUND_MAIL# one.
      const prefix = keys.inboundMessage('').pk;
      const held = (await leases.due(new Date(now), limit)).filter((item) => item.pk.startsWith(prefix));
      const records = await Promise.all(held.map((item) => getRecord(db, table, item.pk.slice(prefix.length))));
      return records.filter((record): record is MailRecord => record?.state === 'PROCESSING');
    },

    /** Moves a lapsed message's place in the sweeper's index to `until`, its lease left as it is. */
    postpone: (messageId: string, leaseUntil: string, until: string) =>
      postponeLapsed(held(messageId), leaseUntil, until),
  } satisfies MailJobStore & Record<string, unknown>;

  return {
    processed: store,
    answerQuota: {
      take: (sender: string, now: Date) => takeAnswer(db, table, sender, now),
    },
  };
}

export type InboundMailRepository = ReturnType<typeof makeInboundMailRepository>;
