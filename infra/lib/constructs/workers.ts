import path from 'node:path';
import { Duration } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import { RUNTIME_ENV } from '@portal/shared';
import { PortalFunction, type FunctionGroupProps } from './portal-function.js';
import type { Queues, QueueKey } from './queues.js';

/** `bind` takes a consumer's declaration: QueueDef.consumerUses. */
export interface WorkersProps extends FunctionGroupProps {
  readonly queues: Queues;
  /** Absolute path of functions/src/workers: a consumer's entry is `<workersDir>/<def.consumer>.ts`. */
  readonly workersDir: string;
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
        ...(def.consumerMemoryMb ? { memorySize: def.consumerMemoryMb } : {}),
        ...(def.consumerTmpMb ? { ephemeralStorageMb: def.consumerTmpMb } : {}),
        ...(def.consumerReservedConcurrency ? { reservedConcurrentExecutions: def.consumerReservedConcurrency } : {}),
        environment: { [RUNTIME_ENV.stage]: props.stage },
        retain: props.retain,
      });
      props.bind(fn, def.consumerUses);
      queue.grantConsumeMessages(fn.role);
      fn.function.addEventSource(
        new SqsEventSource(queue, {
          batchSize: def.batchSize,
          reportBatchItemFailures: true,
          // The poller never runs more than the function may (a throttled message would count as received).
          ...(def.consumerReservedConcurrency ? { maxConcurrency: def.consumerReservedConcurrency } : {}),
        }),
      );
      functions.set(key, fn);
    }
    this.functions = functions;
  }
}
