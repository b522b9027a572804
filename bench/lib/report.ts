import { describeTarget, type FigureResult } from './figures.js';

export interface BenchReport {
  readonly date: string;
  readonly durationSeconds: number;
  readonly quick: boolean;
  readonly repeats: number;
  readonly suites: readonly string[];
  readonly machine: {
    readonly cpu: string;
    readonly cores: number;
    readonly memoryGb: number;
    readonly os: string;
    readonly node: string;
    readonly java: string;
  };
  readonly versions: Readonly<Record<string, string>>;
  readonly figures: readonly FigureResult[];
}

function formatNumber(value: number): string {
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function verdict(figure: FigureResult): string {
  if (figure.pass === undefined) return '';
  return figure.pass ? '✅' : '❌ missed';
}

function machineLine(report: BenchReport): string {
  const m = report.machine;
  return `${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB, ${m.os}, Node ${m.node}`;
}

function table(figures: readonly FigureResult[]): string[] {
  const lines = ['| Figure | Median | Min | Max | Target | |', '| --- | ---: | ---: | ---: | --- | --- |'];
  for (const f of figures) {
    lines.push(
      `| ${f.label} | ${formatNumber(f.median)} ${f.unit} | ${formatNumber(f.min)} | ${formatNumber(f.max)} | ${describeTarget(f.target, f.unit)} | ${verdict(f)} |`,
    );
  }
  return lines;
}

/** bench/results/latest.md: every figure, grouped by suite. */
export function renderMarkdown(report: BenchReport): string {
  const lines = [
    `# Benchmarks — ${report.date.slice(0, 10)}`,
    '',
    `Machine: ${machineLine(report)}. ${report.repeats} repetitions per figure${report.quick ? ' (quick run)' : ''}; ${report.durationSeconds} s in all.`,
    '',
  ];
  for (const suite of report.suites) {
    const figures = report.figures.filter((figure) => figure.id.split('.')[0] === suite);
    if (figures.length === 0) continue;
    lines.push(`## ${suite}`, '', ...table(figures), '');
  }
  const missed = report.figures.filter((figure) => figure.pass === false).length;
  const checked = report.figures.filter((figure) => figure.pass !== undefined).length;
  lines.push(`${checked - missed} of ${checked} targets met.`, '');
  return lines.join('\n');
}

/**
 * bench/results/summary.md, the last complete run's figures with a target and those chosen for it
 * (`Figure.inSummary`), with date and machine. docs/benchmarks.md links to it.
 */
export function renderSummary(report: BenchReport): string {
  const targeted = report.figures.filter((figure) => figure.inSummary ?? figure.target !== undefined);
  return [
    '# Benchmarks — the last complete run',
    '',
    `Last run ${report.date.slice(0, 10)} on ${machineLine(report)} (\`npm run bench\`, ${report.repeats} repetitions; every figure in [latest.md](latest.md), which a partial run also rewrites). What the suites measure: [docs/benchmarks.md](../../docs/benchmarks.md).`,
    '',
    ...table(targeted),
    '',
  ].join('\n');
}
