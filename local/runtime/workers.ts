import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { QUEUES, type QueueKey } from '@portal/shared';
import { ROOT_DIR } from './config.js';
import { startPoller, type SqsBatchHandler } from './poller.js';
import type { RunningService } from '../stand-ins/types.js';

/** A queue as provisioning made it on the SQS stand-in. */
export interface LocalQueue {
  readonly url: string;
  readonly arn: string;
  readonly dlqUrl: string;
}

/**
 * Lambda's SQS event source mapping on this machine: a poller per queue whose consumer has landed, feeding its
 * worker's handler with the same batches, visibility and redrive as in AWS.
 */
export async function startWorkers(options: {
  readonly sqs: SQSClient;
  readonly queues: Readonly<Record<QueueKey, LocalQueue>>;
  readonly region: string;
  readonly log: (line: string) => void;
}): Promise<RunningService[]> {
  const { sqs, queues, region, log } = options;
  const running: RunningService[] = [];
  for (const key of Object.keys(QUEUES) as QueueKey[]) {
    const def = QUEUES[key];
    if (!def.consumer) continue;
    const worker = (await import(
      pathToFileURL(path.join(ROOT_DIR, 'functions/src/workers', `${def.consumer}.ts`)).href
    )) as {
      handler: SqsBatchHandler;
    };
    const poller = startPoller({
      sqs,
      queueUrl: queues[key].url,
      queueArn: queues[key].arn,
      dlqUrl: queues[key].dlqUrl,
      maxReceiveCount: def.maxReceiveCount,
      batchSize: def.batchSize,
      visibilityTimeoutSeconds: def.visibilityTimeoutSeconds,
      region,
      handler: worker.handler,
      log: (level, message) => log(`[${def.id}] ${level}: ${message}`),
    });
    running.push({ name: `poller ${def.id}`, endpoint: queues[key].url, stop: () => poller.stop() });
  }
  return running;
}
