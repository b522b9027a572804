import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalOutputs } from '../../local/runtime/outputs.js';
import { migrationsDone } from '../../local/seed/seed.js';
import { startDynamoDb } from '../../local/stand-ins/dynamodb.js';
import { LOCAL_CREDENTIALS } from '../../local/stand-ins/types.js';
import { addBenchInvoices, type SeedFilter } from './api-seed.js';

/**
 * The scale suite's large table, kept between runs: a stage data directory under .local keyed by SEED_VERSION
 * (bump it whenever what api-seed.ts writes changes: items, keys, search items, counters), grown chunk by chunk
 * with a checkpoint file beside the stage's data, so that an interrupted or time-boxed seeding resumes where it
 * stopped and a later run measures at once.
 */
export const SEED_VERSION = 2;

/** Invoices written between checkpoints. */
export const SEED_CHUNK = 5_000;

export interface SeedCheckpoint {
  readonly version: number;
  /** Benchmark invoices [0, invoices) are in the table, with their search items and counters. */
  readonly invoices: number;
  /** Seconds spent writing them, over every run that added some. */
  readonly seconds: number;
  /** Search items written, by partition. */
  readonly searchItems: Readonly<Record<string, number>>;
  /** Which search items were written: the partitions the benchmark reads, or every one. */
  readonly searchPartitions: 'read' | 'all';
}

const FILE = 'scale-seed.json';

export function readCheckpoint(dataDir: string, searchPartitions: 'read' | 'all'): SeedCheckpoint {
  const file = path.join(dataDir, FILE);
  const empty: SeedCheckpoint = { version: SEED_VERSION, invoices: 0, seconds: 0, searchItems: {}, searchPartitions };
  if (!existsSync(file)) return empty;
  const checkpoint = JSON.parse(readFileSync(file, 'utf8')) as SeedCheckpoint;
  if (checkpoint.version !== SEED_VERSION || checkpoint.searchPartitions !== searchPartitions) {
    throw new Error(
      `${file} is of seed version ${checkpoint.version} (${checkpoint.searchPartitions}), not ${SEED_VERSION} (${searchPartitions}): remove ${dataDir}`,
    );
  }
  return checkpoint;
}

function writeCheckpoint(dataDir: string, checkpoint: SeedCheckpoint): void {
  writeFileSync(path.join(dataDir, FILE), `${JSON.stringify(checkpoint, null, 2)}\n`);
}

/** The chunks [from, to) that take the table from `have` invoices to `want`, each at most SEED_CHUNK. */
export function seedChunks(have: number, want: number): [number, number][] {
  const chunks: [number, number][] = [];
  for (let from = have; from < want; from += SEED_CHUNK) chunks.push([from, Math.min(want, from + SEED_CHUNK)]);
  return chunks;
}

export interface GrowOptions {
  readonly dataDir: string;
  readonly want: number;
  /** Which search items and list entries are written besides the invoices (api-seed.ts). */
  readonly filter: SeedFilter;
  /** Stop adding chunks once this many seconds went by (the table keeps what was written; a later run resumes). */
  readonly budgetSeconds: number;
  readonly parallel: number;
  log(line: string): void;
}

/**
 * Adds benchmark invoices to the kept table up to `want`, a chunk at a time, writing the checkpoint after each
 * chunk's items and counters are in. A chunk cut short by a crash is written again whole on the next run
 * (its items are Puts of the same keys; its counters are added only once the chunk is in).
 */
export async function growSeed(outputs: LocalOutputs, options: GrowOptions): Promise<SeedCheckpoint> {
  const kind = options.filter.searchPartitions === 'all' ? 'all' : 'read';
  let checkpoint = readCheckpoint(options.dataDir, kind);
  const started = Date.now();
  for (const [from, to] of seedChunks(checkpoint.invoices, options.want)) {
    if ((Date.now() - started) / 1000 >= options.budgetSeconds) {
      options.log(`seeding budget of ${options.budgetSeconds} s spent at ${checkpoint.invoices} invoices`);
      break;
    }
    const chunkStarted = Date.now();
    const added = await addBenchInvoices(outputs, from, to, {
      ...options.filter,
      parallel: options.parallel,
    });
    const seconds = (Date.now() - chunkStarted) / 1000;
    const searchItems = { ...checkpoint.searchItems };
    for (const [partition, count] of Object.entries(added.searchItems)) {
      searchItems[partition] = (searchItems[partition] ?? 0) + count;
    }
    checkpoint = { ...checkpoint, invoices: to, seconds: checkpoint.seconds + seconds, searchItems };
    writeCheckpoint(options.dataDir, checkpoint);
    options.log(
      `  ${to} invoices (${Math.round((to - from) / seconds)} invoices/s for this chunk, ${Math.round(checkpoint.seconds)} s in all)`,
    );
  }
  return checkpoint;
}

/**
 * The data migrations the stage runs at its start (the list entries of ADR 0042, the search items of ADR 0045) are
 * marked done in a kept table that was seeded before them, as a fresh seed marks them, before its stage starts:
 * otherwise the start would rewrite every one of its million invoices, hours on DynamoDB Local. What the suite reads
 * is unchanged by them: its invoices' list entries were written by the seed, and the company scope's search items
 * keep their keys and tokens (ADR 0045 adds the supplier index's keys beside them, which staff's reads never read).
 * A mark already there is left as it is.
 */
export async function markKeptTableMigrated(dataDir: string, port: number, log: (line: string) => void): Promise<void> {
  const outputsFile = path.join(dataDir, 'outputs.json');
  if (!existsSync(outputsFile)) return;
  const { tableName } = JSON.parse(readFileSync(outputsFile, 'utf8')) as Pick<LocalOutputs, 'tableName'>;
  const dynamo = await startDynamoDb({ port, dataDir, startTimeoutMs: 600_000 });
  try {
    const db = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS }),
    );
    for (const mark of migrationsDone(new Date())) {
      const marked = await db
        .send(
          new PutCommand({
            TableName: tableName,
            Item: { ...mark, markedBy: 'bench-scale' },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        )
        .then(
          () => true,
          (error: Error) => {
            if (error.name === 'ConditionalCheckFailedException') return false;
            throw error;
          },
        );
      if (marked) log(`kept table: ${String(mark.pk)} marked done (seeded before it)`);
    }
  } finally {
    await dynamo.stop();
  }
}
