import { trace } from '@opentelemetry/api';

/**
 * What DynamoDB bills on demand: the capacity units each call consumed, as DynamoDB itself reports them
 * (ReturnConsumedCapacity=TOTAL), not an estimate from item sizes. A middleware on the one DynamoDB client of a
 * function (adapters/dynamodb.ts) asks for them on every call that can return them and adds them to a counter per
 * operation, kept in the process (no log, no metric per call: a few additions). The call's span carries them too
 * (`aws.dynamodb.consumed_read_units`, `…write_units`), so that the local stage's trace store tells which function
 * consumed what; the cost bench (bench/suites/cost.ts) reads them there.
 */

/** The operations that take ReturnConsumedCapacity (DynamoDB API reference); others are sent as they are. */
const RETURNS_CAPACITY: ReadonlySet<string> = new Set([
  'GetItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'Query',
  'Scan',
  'BatchGetItem',
  'BatchWriteItem',
  'TransactGetItems',
  'TransactWriteItems',
  'ExecuteStatement',
  'BatchExecuteStatement',
  'ExecuteTransaction',
]);

export const ATTR_CONSUMED_READ_UNITS = 'aws.dynamodb.consumed_read_units';
export const ATTR_CONSUMED_WRITE_UNITS = 'aws.dynamodb.consumed_write_units';

export interface CapacityUse {
  /** Calls made (answered, with or without capacity). */
  calls: number;
  readUnits: number;
  writeUnits: number;
}

/** DynamoDB's ConsumedCapacity: one object, or one per table for the batch and transaction operations. */
interface ConsumedCapacity {
  readonly CapacityUnits?: number;
  readonly ReadCapacityUnits?: number;
  readonly WriteCapacityUnits?: number;
}

/**
 * Read and write units of a ConsumedCapacity. TOTAL gives the split for every operation in DynamoDB; an answer
 * with CapacityUnits alone is put on the operation's side (reads for GetItem, Query, Scan, BatchGet, TransactGet).
 */
export function unitsOf(
  operation: string,
  consumed: ConsumedCapacity | readonly ConsumedCapacity[] | undefined,
): { readUnits: number; writeUnits: number } {
  const list = consumed === undefined ? [] : Array.isArray(consumed) ? consumed : [consumed as ConsumedCapacity];
  const reads = /^(Get|Query|Scan|BatchGet|TransactGet)/.test(operation);
  let readUnits = 0;
  let writeUnits = 0;
  for (const entry of list) {
    if (entry.ReadCapacityUnits !== undefined || entry.WriteCapacityUnits !== undefined) {
      readUnits += entry.ReadCapacityUnits ?? 0;
      writeUnits += entry.WriteCapacityUnits ?? 0;
    } else if (reads) readUnits += entry.CapacityUnits ?? 0;
    else writeUnits += entry.CapacityUnits ?? 0;
  }
  return { readUnits, writeUnits };
}

const used = new Map<string, CapacityUse>();

/** The process's consumed capacity so far, per operation (a copy). */
export function consumedCapacity(): Record<string, CapacityUse> {
  return Object.fromEntries([...used].map(([operation, use]) => [operation, { ...use }]));
}

/** Starts the counters again (tests). */
export function resetConsumedCapacity(): void {
  used.clear();
}

type Handler = (args: { input: Record<string, unknown> }) => Promise<{ output?: Record<string, unknown> }>;

interface MeterableClient {
  readonly middlewareStack: {
    add(
      middleware: (next: Handler, context: { commandName?: string }) => Handler,
      options: { name: string; step: 'initialize'; priority?: 'high' | 'normal' | 'low' },
    ): void;
    remove(name: string): boolean;
  };
}

const MIDDLEWARE = 'PortalConsumedCapacity';

/** Asks every call of `client` for its consumed capacity and counts it (idempotent); returns the client. */
export function meterConsumedCapacity<C>(client: C): C {
  const stack = (client as unknown as MeterableClient).middlewareStack;
  stack.remove(MIDDLEWARE);
  stack.add(
    (next, context) => async (args) => {
      const operation = (context.commandName ?? '').replace(/Command$/, '');
      if (!RETURNS_CAPACITY.has(operation)) return next(args);
      // A caller that asked for INDEXES keeps it (TOTAL is within it); NONE or nothing becomes TOTAL.
      const asked = args.input.ReturnConsumedCapacity;
      const input = asked === 'INDEXES' ? args.input : { ...args.input, ReturnConsumedCapacity: 'TOTAL' };
      const result = await next({ ...args, input });
      const { readUnits, writeUnits } = unitsOf(
        operation,
        result.output?.ConsumedCapacity as ConsumedCapacity | ConsumedCapacity[] | undefined,
      );
      const use = used.get(operation) ?? { calls: 0, readUnits: 0, writeUnits: 0 };
      use.calls += 1;
      use.readUnits += readUnits;
      use.writeUnits += writeUnits;
      used.set(operation, use);
      // Inside the telemetry middleware: the active span is this call's.
      trace.getActiveSpan()?.setAttributes({
        [ATTR_CONSUMED_READ_UNITS]: readUnits,
        [ATTR_CONSUMED_WRITE_UNITS]: writeUnits,
      });
      return result;
    },
    { name: MIDDLEWARE, step: 'initialize', priority: 'low' },
  );
  return client;
}
