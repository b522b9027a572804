import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT_DIR, loadLocalConfig } from '../../local/runtime/config.js';
import { launchLocalStage, type LaunchedStage } from '../../local/runtime/launch.js';
import { buildWorld } from '../../local/seed/seed-data.js';
import { BENCH_STAGE_ENV } from '../lib/stage-env.js';
import { BENCH_CLIENT, BENCH_SEARCHES, addBenchInvoices, scaleReadsFilter, type SeedFilter } from '../lib/api-seed.js';
import type { BenchContext, BenchSuite, Figure } from '../lib/figures.js';
import { runLoad, type LoadRequest, type LoadResult } from '../lib/load.js';
import { SEED_VERSION, growSeed, markKeptTableMigrated, type SeedCheckpoint } from '../lib/scale-seed.js';
import { managerApi, type ManagerApi } from '../lib/sign-in.js';

/**
 * Scale: the invoice list (status filter, a page of 50) and every kind of header search (a part of
 * the series-number, a RUC prefix, a business-name word) with 1,000 invoices in the table and with 1,000,000,
 * p50 at the large size ÷ p50 at the small ≤ 1.3 each.
 *
 * Two stages of the suite's own, side by side on ports of their own (BENCH_PORT_BASE + 20 and + 40), so that
 * every repetition measures the small table and the large one one right after the other, under the same load
 * of the (shared) machine:
 * - the small one fresh in .local/bench-scale/small, its demo world topped up to 1,000 invoices;
 * - the large one kept in .local/bench-scale/seed-v<SEED_VERSION>, grown to the size asked by parallel
 *   BatchWriteItem of the items the intake writes (bench/lib/api-seed.ts: the invoice, its search items and its
 *   list entries within the key ranges the reads ask, the counters), with a checkpoint after every chunk
 *   (bench/lib/scale-seed.ts): a later run measures at once, an interrupted seeding resumes.
 *
 * Environment: BENCH_SCALE_INVOICES (default 1,000,000; --quick 20,000), BENCH_SCALE_SEED_MINUTES (a budget
 * of seeding per run: past it the suite measures at the size reached, and `scale.invoices` misses its target),
 * BENCH_SCALE_DIR (where the kept table lives), BENCH_SEARCH_ITEMS=all (every search item of every invoice).
 */

const CONNECTIONS = 20;
const WINDOW_S = { full: 4, quick: 2 };
const SMALL = 1_000;
const LARGE = { full: 1_000_000, quick: 20_000 };
const SIZE_RATIO_MAX = 1.3;
/** BatchWriteItem calls in flight while seeding: DynamoDB Local uses one core per writer at most. */
const SEED_PARALLEL = 8;

type Read = 'list' | keyof typeof BENCH_SEARCHES;

const READS: Record<Read, { label: string; query: string }> = {
  list: { label: 'GET /invoices?invoiceStatus=PENDING&limit=50', query: 'invoiceStatus=PENDING' },
  searchNumber: {
    label: `GET /invoices?search=${BENCH_SEARCHES.searchNumber}&limit=50 (part of the series-number)`,
    query: `search=${encodeURIComponent(BENCH_SEARCHES.searchNumber)}`,
  },
  searchRuc: {
    label: `GET /invoices?search=${BENCH_SEARCHES.searchRuc}&limit=50 (RUC prefix)`,
    query: `search=${encodeURIComponent(BENCH_SEARCHES.searchRuc)}`,
  },
  searchName: {
    label: `GET /invoices?search=${BENCH_SEARCHES.searchName}&limit=50 (business-name word)`,
    query: `search=${encodeURIComponent(BENCH_SEARCHES.searchName)}`,
  },
};

const sizeLabel = (size: number) =>
  size >= 1_000_000 ? `${size / 1_000_000}M` : size >= 1000 ? `${Math.round(size / 1000)}k` : String(size);
const round2 = (value: number) => Math.round(value * 100) / 100;
/** The demo world's invoices, there before the benchmark's. */
const DEMO_INVOICES = buildWorld().invoices.length;

function request(api: ManagerApi, read: Read): LoadRequest {
  return {
    method: 'GET',
    path: `${api.prefix}/invoices?client=${BENCH_CLIENT.taxId}&${READS[read].query}&limit=50`,
    headers: api.headers,
  };
}

/** What a read answers (invoices on the first page, whether there is more): the same at both sizes, or said. */
async function answer(api: ManagerApi, read: Read): Promise<{ invoices: number; more: boolean }> {
  const { path: route, headers } = request(api, read);
  const response = await fetch(`${api.origin}${route}`, { headers });
  if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { items: unknown[]; nextCursor: unknown };
  return { invoices: body.items.length, more: body.nextCursor !== null };
}

function launch(dataDir: string, portBase: number, keepData: boolean): Promise<LaunchedStage> {
  return launchLocalStage({
    dataDir,
    portBase: String(portBase),
    keepData,
    env: BENCH_STAGE_ENV,
    // A kept table of a million invoices takes DynamoDB Local longer to open.
    startTimeoutMs: 600_000,
  });
}

function describe(result: LoadResult): string {
  return `p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ${result.rps}/s${
    result.errors > 0 ? `, ${result.errors} errors ${JSON.stringify(result.failures)}` : ''
  }`;
}

interface Measured {
  readonly small: LoadResult[];
  readonly large: LoadResult[];
}

async function measure(context: BenchContext, small: ManagerApi, large: ManagerApi): Promise<Record<Read, Measured>> {
  const duration = context.quick ? WINDOW_S.quick : WINDOW_S.full;
  const results = {} as Record<Read, Measured>;
  for (const read of Object.keys(READS) as Read[]) {
    const at = (api: ManagerApi, bound: { durationS?: number; amount?: number }) =>
      runLoad({ origin: api.origin, connections: CONNECTIONS, request: () => request(api, read), ...bound });
    // Warm-up of both: the handler's first calls, the connections, DynamoDB Local's JIT and page cache.
    for (const api of [small, large]) {
      await at(api, { amount: CONNECTIONS });
      await at(api, { durationS: 1 });
    }
    const measured: Measured = { small: [], large: [] };
    for (let index = 0; index < context.repeats; index += 1) {
      // Alternating which goes first, so that neither size always follows the other's load.
      const order = index % 2 === 0 ? (['small', 'large'] as const) : (['large', 'small'] as const);
      for (const size of order) {
        const result = await at(size === 'small' ? small : large, { durationS: duration });
        measured[size].push(result);
        context.log(`${read} ${size}: ${describe(result)}`);
      }
    }
    results[read] = measured;
  }
  return results;
}

function figuresOf(results: Record<Read, Measured>, sizes: { small: number; large: number }): Figure[] {
  const figures: Figure[] = [];
  for (const read of Object.keys(READS) as Read[]) {
    const { small, large } = results[read];
    for (const [size, samples] of [
      [sizes.small, small],
      [sizes.large, large],
    ] as const) {
      const at = `${sizeLabel(size)} invoices, ${CONNECTIONS} connections`;
      figures.push(
        {
          id: `scale.${read}.p50.${sizeLabel(size)}`,
          label: `${READS[read].label} p50 (${at})`,
          unit: 'ms',
          samples: samples.map((result) => round2(result.p50)),
        },
        {
          id: `scale.${read}.p99.${sizeLabel(size)}`,
          label: `${READS[read].label} p99 (${at})`,
          unit: 'ms',
          samples: samples.map((result) => round2(result.p99)),
        },
      );
    }
    figures.push({
      id: `scale.${read}.sizeRatio`,
      label: `${READS[read].label} p50 with ${sizeLabel(sizes.large)} ÷ with ${sizeLabel(sizes.small)} invoices`,
      unit: 'ratio',
      samples: small.map((result, index) => round2(large[index]!.p50 / result.p50)),
      target: { max: SIZE_RATIO_MAX },
    });
    figures.push({
      id: `scale.${read}.errors`,
      label: `${READS[read].label} errors (both sizes)`,
      unit: 'count',
      samples: small.map((result, index) => result.errors + large[index]!.errors),
      target: { max: 0 },
      inSummary: false,
    });
  }
  return figures;
}

export const suite: BenchSuite = {
  name: 'scale',
  async run(context) {
    const want = Number(process.env.BENCH_SCALE_INVOICES ?? (context.quick ? LARGE.quick : LARGE.full));
    if (!Number.isInteger(want) || want <= SMALL) throw new Error(`BENCH_SCALE_INVOICES must be > ${SMALL}`);
    const budgetMinutes = Number(process.env.BENCH_SCALE_SEED_MINUTES ?? Infinity);
    const portBase = Number(process.env.BENCH_PORT_BASE ?? '5000');
    const root = path.resolve(ROOT_DIR, process.env.BENCH_SCALE_DIR ?? '.local/bench-scale');
    // What the seeding writes besides the invoices: the items within the key ranges the reads ask (api-seed.ts).
    const filter: SeedFilter =
      process.env.BENCH_SEARCH_ITEMS === 'all' ? { searchPartitions: 'all' } : scaleReadsFilter();
    const partitions = filter.searchPartitions;
    const keptDir = path.join(root, `seed-v${SEED_VERSION}${partitions === 'all' ? '-all' : ''}`);
    mkdirSync(keptDir, { recursive: true });

    const largePortBase = portBase + 40;
    const largePorts = loadLocalConfig({ LOCAL_PORT_BASE: String(largePortBase) }).ports;
    await markKeptTableMigrated(keptDir, largePorts.dynamodb, context.log);
    context.log(`starting the small stage (fresh) and the large one (kept in ${keptDir})`);
    const launched = await Promise.allSettled([
      launch(path.join(root, 'small'), portBase + 20, false),
      launch(keptDir, largePortBase, true),
    ]);
    const failed = launched.find((result) => result.status === 'rejected');
    if (failed) {
      // The other one may have started: it is stopped before saying why.
      for (const result of launched) if (result.status === 'fulfilled') await result.value.stop();
      throw (failed as PromiseRejectedResult).reason;
    }
    const [smallStage, largeStage] = launched.map(
      (result) => (result as PromiseFulfilledResult<LaunchedStage>).value,
    ) as [LaunchedStage, LaunchedStage];
    try {
      const smallAdded = await addBenchInvoices(smallStage.outputs, 0, SMALL - DEMO_INVOICES, filter);
      context.log(`small: ${DEMO_INVOICES} demo invoices + ${smallAdded.invoices} benchmark invoices`);

      const started = Date.now();
      const checkpoint: SeedCheckpoint = await growSeed(largeStage.outputs, {
        dataDir: keptDir,
        want: want - DEMO_INVOICES,
        filter,
        budgetSeconds: budgetMinutes * 60,
        parallel: SEED_PARALLEL,
        log: context.log,
      });
      const seededNow = Math.round((Date.now() - started) / 1000);
      const largeSize = DEMO_INVOICES + checkpoint.invoices;
      const searchItems = Object.values(checkpoint.searchItems).reduce((sum, count) => sum + count, 0);
      context.log(
        `large: ${largeSize} invoices (${searchItems} search items), seeded in ${Math.round(checkpoint.seconds)} s in all, ${seededNow} s in this run`,
      );

      const [small, large] = await Promise.all([managerApi(smallStage.outputs), managerApi(largeStage.outputs)]);
      const answers = Object.fromEntries(
        await Promise.all(
          (Object.keys(READS) as Read[]).map(
            async (read) => [read, { small: await answer(small, read), large: await answer(large, read) }] as const,
          ),
        ),
      );
      context.log(`answers: ${JSON.stringify(answers)}`);
      const results = await measure(context, small, large);

      const which =
        partitions === 'all'
          ? 'every search item and list entry'
          : 'their search items and list entries in the key ranges read';
      return [
        {
          id: 'scale.invoices',
          label: `Invoices in the large table (asked: ${want.toLocaleString('en-US')}; the issue's: 1,000,000)`,
          unit: 'count',
          samples: [largeSize],
          target: { min: 1_000_000 },
        },
        {
          id: 'scale.seed.seconds',
          label: `Seeding of the large table: ${checkpoint.invoices} invoices with ${which} (${searchItems} search items), parallel BatchWriteItem, over every run that added some`,
          unit: 's',
          samples: [Math.round(checkpoint.seconds)],
          inSummary: true,
        },
        {
          id: 'scale.seed.perSecond',
          label: 'Seeding of the large table: invoices written per second',
          unit: 'docs/s',
          samples: [checkpoint.seconds > 0 ? Math.round(checkpoint.invoices / checkpoint.seconds) : 0],
          inSummary: true,
        },
        ...figuresOf(results, { small: SMALL, large: largeSize }),
      ];
    } finally {
      await Promise.all([smallStage.stop(), largeStage.stop()]);
    }
  },
};
