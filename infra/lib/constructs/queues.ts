import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { QUEUES, type QueueDef } from '@portal/shared';
import type { PortalFunction } from './portal-function.js';

export type QueueKey = keyof typeof QUEUES;

export interface QueuesProps {
  readonly retain: boolean;
}

export interface PortalQueue {
  readonly def: QueueDef;
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
}

/** Every queue of shared QUEUES, each with its dead-letter queue. */
export class Queues extends Construct {
  readonly byKey: Readonly<Record<QueueKey, PortalQueue>>;

  constructor(scope: Construct, id: string, props: QueuesProps) {
    super(scope, id);
    const removalPolicy = props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    const entries = (Object.entries(QUEUES) as [QueueKey, QueueDef][]).map(([key, def]): [QueueKey, PortalQueue] => {
      const deadLetterQueue = new sqs.Queue(this, `${def.id}Dlq`, {
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        // The longest SQS allows: failed messages wait for a person to look at them.
        retentionPeriod: Duration.days(14),
        removalPolicy,
      });
      const queue = new sqs.Queue(this, def.id, {
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        visibilityTimeout: Duration.seconds(def.visibilityTimeoutSeconds),
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: def.maxReceiveCount },
        removalPolicy,
      });
      return [key, { def, queue, deadLetterQueue }];
    });
    this.byKey = Object.fromEntries(entries) as Record<QueueKey, PortalQueue>;
  }

  get all(): readonly PortalQueue[] {
    return Object.values(this.byKey);
  }

  /** Grants sending to the queue and tells the function its URL. */
  bindSend(fn: PortalFunction, key: QueueKey): void {
    const { def, queue } = this.byKey[key];
    queue.grantSendMessages(fn.role);
    fn.function.addEnvironment(def.env, queue.queueUrl);
  }
}
