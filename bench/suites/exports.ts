import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT_DIR } from '../../local/runtime/config.js';
import type { BenchSuite, Figure } from '../lib/figures.js';

/** The target's size: an export of 100,000 rows, at flat memory. */
const ROWS = { full: 100_000, quick: 20_000 };
/** A smaller file beside it: flat memory means the same peak and retained heap for both. */
const SMALL_ROWS = 10_000;
/** The export's target: 100,000 rows within 30 s (the worker's timeout is 300 s). */
const XLSX_MAX_S = 30;
const CSV_MAX_S = 15;
/** The worker function has 512 MB: the writer's peak must leave most of it. */
const PEAK_GROWTH_MAX_MB = 160;
/** The export's memory target: the worker's peak memory ≤ 256 MB whatever the row count (the whole process, at both sizes). */
const PEAK_MAX_MB = 256;
/**
 * Flat: ten times the rows, the same peak. The ratio of the peaks (whole process) at 100,000 and at 10,000 rows
 * stays near 1; a writer that kept its rows would be near 10.
 */
const PEAK_RATIO_MAX = 1.25;
/** What stays on the heap after the file (collected): nothing proportional to the rows. */
const RETAINED_MAX_MB = 8;

interface Run {
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly baselineMb: number;
  readonly peakMb: number;
  readonly heapGrowthMb: number;
  readonly bytes: number;
}

/** One file written in a process of its own (bench/lib/export-run.ts), so that the memory measured is its own. */
function run(format: 'xlsx' | 'csv', rows: number, dir: string): Run {
  const output = execFileSync(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      'tsx',
      path.join(ROOT_DIR, 'bench/lib/export-run.ts'),
      format,
      String(rows),
      path.join(dir, `export.${format}`),
    ],
    { cwd: ROOT_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return JSON.parse(output.trim().split('\n').at(-1)!) as Run;
}

const round = (value: number) => Math.round(value * 100) / 100;

/**
 * The exports worker's file writer (functions/src/use-cases/export-file.ts, the code the worker runs): 100,000
 * invoices streamed into an XLSX (exceljs's streaming writer) and a CSV on disk, page after page as the worker reads
 * them. Time, the peak resident set above the process's baseline, and the heap retained once collected, against a
 * 10,000-row file: the same retained heap for both is the flat memory the target asks for. The S3 multipart upload
 * the worker streams into instead of a file adds its parts in flight (2 × 5 MiB).
 */
export const suite: BenchSuite = {
  name: 'exports',
  async run(context) {
    const rows = context.quick ? ROWS.quick : ROWS.full;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-exports-'));
    const label = rows.toLocaleString('en-US');
    try {
      const samples: Record<'xlsx' | 'csv', Run[]> = { xlsx: [], csv: [] };
      const smalls: Record<'xlsx' | 'csv', Run[]> = { xlsx: [], csv: [] };
      const smallLabel = SMALL_ROWS.toLocaleString('en-US');
      for (let index = 0; index < context.repeats; index += 1) {
        for (const format of ['xlsx', 'csv'] as const) {
          samples[format].push(run(format, rows, dir));
          smalls[format].push(run(format, SMALL_ROWS, dir));
          const [large, small] = [samples[format].at(-1)!, smalls[format].at(-1)!];
          context.log(
            `${format} ${label} rows: ${large.seconds.toFixed(1)} s, peak ${large.peakMb.toFixed(0)} MB ` +
              `(+${(large.peakMb - large.baselineMb).toFixed(0)}), ${(large.bytes / 1e6).toFixed(1)} MB file; ` +
              `${smallLabel} rows: ${small.seconds.toFixed(1)} s, peak ${small.peakMb.toFixed(0)} MB`,
          );
        }
      }
      const figures: Figure[] = [];
      for (const format of ['xlsx', 'csv'] as const) {
        const runs = samples[format];
        figures.push(
          {
            id: `exports.${format}.time`,
            label: `Export to ${format.toUpperCase()}: ${label} invoices written`,
            unit: 's',
            samples: runs.map((each) => round(each.seconds)),
            target: { max: format === 'xlsx' ? XLSX_MAX_S : CSV_MAX_S },
          },
          {
            id: `exports.${format}.cpu`,
            label: `Export to ${format.toUpperCase()}: CPU time of the writer's process (${label} rows; the wall time on a shared machine is more)`,
            unit: 's',
            samples: runs.map((each) => round(each.cpuSeconds)),
            inSummary: true,
          },
          {
            id: `exports.${format}.peak-rss`,
            label: `Export to ${format.toUpperCase()}: peak RSS above the process's baseline (${label} rows)`,
            unit: 'MB',
            samples: runs.map((each) => round(each.peakMb - each.baselineMb)),
            target: { max: PEAK_GROWTH_MAX_MB },
          },
          {
            id: `exports.${format}.peak`,
            label: `Export to ${format.toUpperCase()}: the process's peak RSS (${label} rows)`,
            unit: 'MB',
            samples: runs.map((each) => round(each.peakMb)),
            target: { max: PEAK_MAX_MB },
          },
          {
            id: `exports.${format}.peak.small`,
            label: `Export to ${format.toUpperCase()}: the process's peak RSS (${smallLabel} rows)`,
            unit: 'MB',
            samples: smalls[format].map((each) => round(each.peakMb)),
            target: { max: PEAK_MAX_MB },
          },
          {
            id: `exports.${format}.peak.ratio`,
            label: `Export to ${format.toUpperCase()}: peak RSS with ${label} rows ÷ with ${smallLabel} (flat memory)`,
            unit: 'ratio',
            samples: runs.map((each, index) => round(each.peakMb / smalls[format][index]!.peakMb)),
            target: { max: PEAK_RATIO_MAX },
          },
          {
            id: `exports.${format}.retained`,
            label: `Export to ${format.toUpperCase()}: heap retained after the file, collected (${label} rows)`,
            unit: 'MB',
            samples: runs.map((each) => round(each.heapGrowthMb)),
            target: { max: RETAINED_MAX_MB },
          },
        );
      }
      figures.push({
        id: 'exports.xlsx.retained.small',
        label: `Export to XLSX: heap retained after the file, collected (${smallLabel} rows)`,
        unit: 'MB',
        samples: smalls.xlsx.map((each) => round(each.heapGrowthMb)),
        target: { max: RETAINED_MAX_MB },
      });
      return figures;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
