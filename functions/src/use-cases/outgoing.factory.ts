import { QUEUES } from '@portal/shared';
import { clock } from '../adapters/clock.js';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { queueFromEnv } from '../adapters/sqs.js';
import { logger } from '../observability/logger.js';
import { makeOutgoing, type QueueKey } from '../repositories/outgoing.js';

/** The outbox of queue messages wired to the real queues, built once per cold start. */
export const outgoing = makeOutgoing(
  documentClient,
  tableName(),
  Object.fromEntries((Object.keys(QUEUES) as QueueKey[]).map((key) => [key, queueFromEnv(QUEUES[key].env)])) as Record<
    QueueKey,
    ReturnType<typeof queueFromEnv>
  >,
  logger,
  clock,
);
