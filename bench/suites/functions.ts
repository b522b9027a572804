import { budgetOf } from '../../infra/lib/bundling.js';
import { bundleAll, coldImportMs } from '../lib/bundles.js';
import { evaluate, type BenchSuite, type Figure } from '../lib/figures.js';

const KB = 1024;

/**
 * Every function's bundle as CDK deploys it: raw and gzip size, and the time a fresh Node process takes to
 * import it (median of `repeats` processes, at least eleven), with the environment PortalFunction gives it, so that
 * its clients and its OpenTelemetry SDK and exporter are built as in Lambda. Sizes are exact; import times depend on the machine
 * (Lambda runs Node 24 on Graviton; the figure here is this machine's Node). The imports take turns, one process
 * per bundle per round, so that a moment of noise on the machine touches one sample of many bundles instead of
 * every sample of one.
 */
export const suite: BenchSuite = {
  name: 'functions',
  async run(context) {
    const { bundles, dispose } = await bundleAll();
    const figures: Figure[] = [];
    const imports = Math.max(11, context.repeats);
    try {
      const samplesOf = new Map(bundles.map((bundle) => [bundle, [] as number[]]));
      for (let round = 0; round < imports; round += 1) {
        for (const bundle of bundles) samplesOf.get(bundle)!.push(await coldImportMs(bundle.file));
      }
      for (const bundle of bundles) {
        const budget = budgetOf(bundle);
        const samples = samplesOf.get(bundle)!;
        context.log(
          `${bundle.name}: ${(bundle.rawBytes / KB).toFixed(0)} KB, ${(bundle.gzipBytes / KB).toFixed(0)} KB gzip, import ${samples.map((ms) => ms.toFixed(0)).join('/')} ms`,
        );
        figures.push(
          {
            id: `functions.${bundle.name}.raw`,
            label: `${bundle.name} bundle (${bundle.kind})`,
            unit: 'KB',
            samples: [round(bundle.rawBytes / KB)],
            target: { max: budget.rawKb },
          },
          {
            id: `functions.${bundle.name}.gzip`,
            label: `${bundle.name} bundle gzip (${bundle.kind})`,
            unit: 'KB',
            // Reported, not budgeted: Lambda's download and Node's parse depend on the raw size.
            samples: [round(bundle.gzipBytes / KB)],
          },
          {
            id: `functions.${bundle.name}.import`,
            label: `${bundle.name} cold import (${bundle.kind})`,
            unit: 'ms',
            samples: samples.map(round),
            target: { max: budget.importMs },
          },
        );
      }
    } finally {
      dispose();
    }
    return [...summaries(figures), ...figures.map(inReadmeWhenMissed)];
  },
};

/** Per-function figures reach the summary only when they miss their budget; the summaries stand for the rest. */
function inReadmeWhenMissed(figure: Figure): Figure {
  return { ...figure, inSummary: evaluate(figure).pass === false };
}

/** For each kind of function and measure, the worst function's figure, named, against the same budget. */
function summaries(figures: readonly Figure[]): Figure[] {
  const out: Figure[] = [];
  for (const kind of ['api', 'worker'] as const) {
    for (const measure of ['raw', 'gzip', 'import'] as const) {
      const candidates = figures.filter(
        (figure) => figure.id.endsWith(`.${measure}`) && figure.label.endsWith(`(${kind})`),
      );
      if (candidates.length === 0) continue;
      const worst = candidates.reduce((a, b) => (evaluate(b).median > evaluate(a).median ? b : a));
      const name = worst.id.split('.')[1];
      const what = { raw: 'largest bundle', gzip: 'largest bundle gzip', import: 'slowest cold import' }[measure];
      out.push({
        ...worst,
        id: `functions.${kind}.worst.${measure}`,
        label: `${kind === 'api' ? 'API handlers' : 'Workers, jobs and trigger'}: ${what} (${name}, of ${candidates.length})`,
        inSummary: true,
      });
    }
  }
  return out;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
