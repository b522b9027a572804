import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule, TestSpecification } from 'vitest/node';

/** One test file of a run, as the timing reporter writes it. */
export interface FileTiming {
  readonly project: string;
  readonly file: string;
  /** Seconds from the run's start to the file's queueing in a worker, and to its end. */
  readonly queuedAt: number;
  readonly endedAt: number;
  /** Seconds importing the setup files, the module (with its suites' bodies), and running its tests and hooks. */
  readonly setup: number;
  readonly collect: number;
  readonly run: number;
  readonly tests: number;
  readonly assertions: number;
  readonly state: string;
}

export interface RunTimings {
  readonly startedAt: string;
  readonly wallSeconds: number;
  /** Seconds from the run's start to the first file queued: the global setups (the local stage's start). */
  readonly beforeFirstFile: number;
  readonly files: readonly FileTiming[];
}

const seconds = (ms: number) => Math.round(ms) / 1000;

/**
 * Writes where a run's time went, per file and per project, to `.local/test-timings.json` (TEST_TIMINGS_FILE to
 * change it) and prints a summary: each project's span and summed time, its tests and expect() calls
 * (tests/setup/count-assertions.ts), and the slowest files. docs/testing.md reads its figures from it.
 */
export default class TimingReporter implements Reporter {
  private startedAt = Date.now();
  private readonly queued = new Map<string, number>();
  private readonly files: FileTiming[] = [];
  private firstQueuedAt: number | undefined;

  onTestRunStart(_specifications: readonly TestSpecification[]): void {
    this.startedAt = Date.now();
  }

  onTestModuleQueued(module: TestModule): void {
    const now = Date.now();
    this.firstQueuedAt ??= now;
    this.queued.set(module.id, now);
  }

  onTestModuleEnd(module: TestModule): void {
    const diagnostic = module.diagnostic();
    const tests = [...module.children.allTests()];
    this.files.push({
      project: module.project.name,
      file: path.relative(process.cwd(), module.moduleId),
      queuedAt: seconds((this.queued.get(module.id) ?? this.startedAt) - this.startedAt),
      endedAt: seconds(Date.now() - this.startedAt),
      setup: seconds(diagnostic.setupDuration),
      collect: seconds(diagnostic.collectDuration),
      run: seconds(diagnostic.duration),
      tests: tests.length,
      assertions: tests.reduce((sum, test) => sum + (test.meta().assertions ?? 0), 0),
      state: module.state(),
    });
  }

  onTestRunEnd(): void {
    const timings: RunTimings = {
      startedAt: new Date(this.startedAt).toISOString(),
      wallSeconds: seconds(Date.now() - this.startedAt),
      beforeFirstFile: seconds((this.firstQueuedAt ?? Date.now()) - this.startedAt),
      files: this.files.sort((a, b) => a.queuedAt - b.queuedAt),
    };
    const out = path.resolve(process.env.TEST_TIMINGS_FILE ?? '.local/test-timings.json');
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(timings, null, 2)}\n`);
    console.log(`\n${summarize(timings)}\nTiempos por archivo: ${path.relative(process.cwd(), out)}`);
  }
}

/** The summary a run prints: per project, then the slowest files. */
export function summarize(timings: RunTimings, slowest = 12): string {
  const byProject = new Map<string, FileTiming[]>();
  for (const file of timings.files) byProject.set(file.project, [...(byProject.get(file.project) ?? []), file]);
  const pad = (value: string | number, width: number) => String(value).padStart(width);
  const lines = [
    `Run ${timings.wallSeconds.toFixed(0)} s; before the first file ${timings.beforeFirstFile.toFixed(0)} s`,
    `${'project'.padEnd(16)}${pad('files', 6)}${pad('tests', 7)}${pad('expects', 9)}${pad('from', 7)}${pad('to', 7)}${pad('sum s', 8)}`,
  ];
  for (const [project, files] of byProject) {
    const from = Math.min(...files.map((file) => file.queuedAt));
    const to = Math.max(...files.map((file) => file.endedAt));
    const sum = files.reduce((total, file) => total + file.endedAt - file.queuedAt, 0);
    lines.push(
      `${project.padEnd(16)}${pad(files.length, 6)}${pad(
        files.reduce((total, file) => total + file.tests, 0),
        7,
      )}${pad(
        files.reduce((total, file) => total + file.assertions, 0),
        9,
      )}${pad(from.toFixed(0), 7)}${pad(to.toFixed(0), 7)}${pad(sum.toFixed(0), 8)}`,
    );
  }
  lines.push('slowest files (queued to end; setup, import, tests and hooks):');
  const bySpan = [...timings.files].sort((a, b) => b.endedAt - b.queuedAt - (a.endedAt - a.queuedAt));
  for (const file of bySpan.slice(0, slowest)) {
    lines.push(
      `${pad((file.endedAt - file.queuedAt).toFixed(1), 7)} s  ${file.file} (${file.setup.toFixed(1)}, ${file.collect.toFixed(1)}, ${file.run.toFixed(1)})`,
    );
  }
  return lines.join('\n');
}
