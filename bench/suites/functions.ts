import { BUNDLE_BUDGETS } from '../../infra/lib/bundling.js';
import { bundleAll, coldImportMs } from '../lib/bundles.js';
import type { BenchSuite, Figure } from '../lib/figures.js';

const KB = 1024;

/**
 * Every function's bundle as CDK deploys it: raw and gzip size, and the time a fresh Node process takes to
 * import it (median of `repeats` processes, at least five). Sizes are exact; import times depend on the machine
 * (Lambda runs Node 24 on Graviton; the figure here is this machine's Node).
 */
export const suite: BenchSuite = {
  name: 'functions',
  async run(context) {
    const { bundles, dispose } = await bundleAll();
    const figures: Figure[] = [];
    const imports = Math.max(5, context.repeats);
    try {
      for (const bundle of bundles) {
        const budget = BUNDLE_BUDGETS[bundle.kind];
        const samples: number[] = [];
        for (let index = 0; index < imports; index += 1) samples.push(await coldImportMs(bundle.file));
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
            samples: [round(bundle.gzipBytes / KB)],
            target: { max: budget.gzipKb },
          },
          {
            id: `functions.${bundle.name}.import`,
            label: `${bundle.name} cold import`,
            unit: 'ms',
            samples: samples.map(round),
            ...(budget.importMs === undefined ? {} : { target: { max: budget.importMs } }),
          },
        );
      }
    } finally {
      dispose();
    }
    return figures;
  },
};

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
