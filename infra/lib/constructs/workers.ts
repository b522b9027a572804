import path from 'node:path';
import { Duration } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import { RUNTIME_ENV } from '@portal/shared';
import { PortalFunction } from './portal-function.js';
import type { Queues, QueueKey } from './queues.js';

export interface WorkersProps {
  readonly stage: string;
  readonly retain: boolean;
  readonly queues: Queues;
  /** Absolute path of functions/src/workers: a consumer's entry is `<workersDir>/<def.consumer>.ts`. */
  readonly workersDir: string;
  readonly adminGroupName: string;
  /** The portal's origin (stage config `webOrigin`): the notifications' e-mails link to the invoice there. */
  readonly webOrigin: string;
  /** Grant-and-configure applied to every worker (table, bucket, queues to send to). */
  readonly bind: (fn: PortalFunction) => void;
}

/**
 * One function per queue whose consumer has landed (shared QUEUES), fed by an SQS event source with
 * partial batch responses; the queue's visibility timeout is set from the same definition.
 */
export class Workers extends Construct {
  readonly functions: ReadonlyMap<QueueKey, PortalFunction>;

  constructor(scope: Construct, id: string, props: WorkersProps) {
    super(scope, id);
    const functions = new Map<QueueKey, PortalFunction>();
    for (const key of Object.keys(props.queues.byKey) as QueueKey[]) {
      const { def, queue } = props.queues.byKey[key];
      if (!def.consumer) continue;
      const fn = new PortalFunction(this, `${def.id}Worker`, {
        name: `worker-${def.consumer}`,
        entry: path.join(props.workersDir, `${def.consumer}.ts`),
        description: `Consumidor de la cola ${def.purpose}`,
        timeout: Duration.seconds(def.consumerTimeoutSeconds),
        environment: {
          [RUNTIME_ENV.stage]: props.stage,
          [RUNTIME_ENV.adminGroupName]: props.adminGroupName,
          [RUNTIME_ENV.s3ForcePathStyle]: 'false',
          [RUNTIME_ENV.webOrigin]: props.webOrigin,
        },
        retain: props.retain,
      });
      props.bind(fn);
      queue.grantConsumeMessages(fn.role);
      fn.function.addEventSource(
        new SqsEventSource(queue, { batchSize: def.batchSize, reportBatchItemFailures: true }),
      );
      functions.set(key, fn);
    }
    this.functions = functions;
  }
}
