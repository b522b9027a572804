import type { LocalOutputs } from '../../local/runtime/outputs.js';

/**
 * What every benchmark suite reports: figures, each with one sample per repetition and, when the product
 * promises something about it, a target checked on the median.
 */

export type Unit = 's' | 'ms' | 'KB' | 'MB' | 'req/s' | 'ratio' | 'docs/s' | 'count' | 'USD';

/** A bound the median must respect (inclusive). */
export interface Target {
  readonly max?: number;
  readonly min?: number;
}

export interface Figure {
  /** Stable dotted id, e.g. `api.list.p50.100k`, `functions.list-invoices.gzip`. */
  readonly id: string;
  /** What it is, for bench/results/latest.md and summary.md. */
  readonly label: string;
  readonly unit: Unit;
  /** One value per repetition (a size measured once is one sample). */
  readonly samples: readonly number[];
  readonly target?: Target;
  /**
   * Whether bench/results/summary.md shows it: by default the figures with a target. Suites that report many
   * figures of one kind (every function, every route, every endpoint's error count) show a summary there.
   */
  readonly inSummary?: boolean;
}

export interface Summary {
  readonly min: number;
  readonly median: number;
  readonly max: number;
}

export interface FigureResult extends Figure, Summary {
  /** Whether the median meets the target; absent when there is no target. */
  readonly pass?: boolean;
}

/** The stage a suite measures against, started once per `npm run bench` (local/, bench ports). */
export interface BenchStage {
  readonly apiUrl: string;
  readonly webUrl: string;
  /** The local stage's outputs.json (endpoints, demo users, table and bucket names). */
  readonly outputs: LocalOutputs;
}

/**
 * How the stage traces: every invocation (what the cost suite prices and the tests read), or the API's reads in the
 * ratio AWS traces them (docs/adr/0041-trace-sampling.md), for a suite that measures what a request costs there.
 */
export type StageTracing = 'all' | 'aws';

export interface BenchContext {
  /** Repetitions of each measurement (min/median/max are taken over them). */
  readonly repeats: number;
  /** `--quick`: shorter load windows and fewer repetitions, for trying the harness (not for bench/results/summary.md). */
  readonly quick: boolean;
  log(line: string): void;
  /**
   * Starts the local stage on first use, and returns the same one afterwards while the tracing asked (default all)
   * is the same; another tracing starts it again, fresh.
   */
  stage(tracing?: StageTracing): Promise<BenchStage>;
  /**
   * Stops the stage and starts it again on its data, as a table is opened after a restart (DynamoDB Local's JVM and
   * caches fresh, as the scale suite's kept table is): what a table of that size answers, not what a process that
   * just took its writes does.
   */
  reopenStage(): Promise<BenchStage>;
  /**
   * Starts a fresh stage beside the shared one, with the same settings (BENCH_PORT_BASE + 60, data beside the shared
   * stage's), to measure two tables side by side; the suite stops it.
   */
  sideStage(name: string, tracing?: StageTracing): Promise<BenchStage & { stop(): Promise<void> }>;
}

export interface BenchSuite {
  readonly name: string;
  run(context: BenchContext): Promise<Figure[]>;
}

/** Min, median (mean of the middle two for an even count) and max. */
export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new Error('summarize: no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { min: sorted[0]!, median, max: sorted[sorted.length - 1]! };
}

export function meets(value: number, target: Target): boolean {
  return (target.max === undefined || value <= target.max) && (target.min === undefined || value >= target.min);
}

export function evaluate(figure: Figure): FigureResult {
  const summary = summarize(figure.samples);
  return figure.target
    ? { ...figure, ...summary, pass: meets(summary.median, figure.target) }
    : { ...figure, ...summary };
}

/** The p-th percentile (0–100) of samples, nearest rank. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error('percentile: no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export function describeTarget(target: Target | undefined, unit: Unit): string {
  if (!target) return '';
  const parts: string[] = [];
  if (target.max !== undefined) parts.push(`≤ ${target.max} ${unit}`);
  if (target.min !== undefined) parts.push(`≥ ${target.min} ${unit}`);
  return parts.join(', ');
}
