import { budgetOf, IMPORT_REFERENCE_MS } from '../../infra/lib/bundling.js';
import { bundleAll, coldImportMs } from '../lib/bundles.js';
import { evaluate, summarize, type BenchSuite, type Figure } from '../lib/figures.js';

const KB = 1024;
/** How many function imports of a round go between two imports of the reference. */
const REFERENCE_EVERY = 12;

/**
 * Every function's bundle as CDK deploys it: raw and gzip size, and the time a fresh Node process takes to
 * import it (median of `repeats` processes, at least eleven), with the environment PortalFunction gives it, so that
 * its clients and its OpenTelemetry SDK and exporter are built as in Lambda. Sizes are exact. Import times depend on
 * the machine (Lambda runs Node 24 on Graviton; the figure here is this machine's Node), and on the day: each round
 * also imports the reference (the DynamoDB client alone, bench/lib/reference-import.ts) every REFERENCE_EVERY bundles,
 * and each import of the round is scaled by the round's median reference to the machine the budgets were met on
 * (IMPORT_REFERENCE_MS). The imports take turns, one process per bundle per round, so that a moment of noise on the
 * machine touches one sample of many bundles instead of every sample of one.
 */
export const suite: BenchSuite = {
  name: 'functions',
  async run(context) {
    const { bundles, reference, dispose } = await bundleAll();
    const figures: Figure[] = [];
    const imports = Math.max(11, context.repeats);
    try {
      const samplesOf = new Map(bundles.map((bundle) => [bundle, { raw: [] as number[], scaled: [] as number[] }]));
      const references: number[] = [];
      for (let round = 0; round < imports; round += 1) {
        const raw: number[] = [];
        const roundReferences: number[] = [];
        for (const [index, bundle] of bundles.entries()) {
          if (index % REFERENCE_EVERY === 0) roundReferences.push(await coldImportMs(reference.file));
          raw.push(await coldImportMs(bundle.file));
        }
        roundReferences.push(await coldImportMs(reference.file));
        const machine = summarize(roundReferences).median;
        references.push(machine);
        bundles.forEach((bundle, index) => {
          samplesOf.get(bundle)!.raw.push(raw[index]!);
          samplesOf.get(bundle)!.scaled.push((raw[index]! * IMPORT_REFERENCE_MS) / machine);
        });
      }
      context.log(
        `reference (the DynamoDB client alone): import ${references.map((ms) => ms.toFixed(0)).join('/')} ms`,
      );
      figures.push({
        id: 'functions.reference.import',
        label: `Reference: the DynamoDB client alone, cold import on this machine (${IMPORT_REFERENCE_MS} ms on the budgets' machine; every import below is scaled by it)`,
        unit: 'ms',
        samples: references.map(round),
        inSummary: true,
      });
      for (const bundle of bundles) {
        const budget = budgetOf(bundle);
        const { raw, scaled } = samplesOf.get(bundle)!;
        context.log(
          `${bundle.name}: ${(bundle.rawBytes / KB).toFixed(0)} KB, ${(bundle.gzipBytes / KB).toFixed(0)} KB gzip, import ${raw.map((ms) => ms.toFixed(0)).join('/')} ms (scaled ${scaled.map((ms) => ms.toFixed(0)).join('/')})`,
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
            label: `${bundle.name} cold import, scaled to the reference (${bundle.kind})`,
            unit: 'ms',
            samples: scaled.map(round),
            target: { max: budget.importMs },
          },
          {
            id: `functions.${bundle.name}.importHere`,
            label: `${bundle.name} cold import on this machine (${bundle.kind})`,
            unit: 'ms',
            samples: raw.map(round),
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
  return { ...figure, inSummary: figure.inSummary === true || evaluate(figure).pass === false };
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
      const what = { raw: 'largest bundle', gzip: 'largest bundle gzip', import: 'slowest cold import, scaled' }[
        measure
      ];
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
