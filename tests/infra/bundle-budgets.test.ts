import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleAll, heaviestInputs, type BuiltBundle } from '../../bench/lib/bundles.js';
import { BUNDLE_BUDGET_EXCEPTIONS, budgetOf, functionEntries } from '../../infra/lib/bundling.js';

/**
 * The size budget on every Lambda bundle (1 MB), made as CDK makes them (infra/lib/bundling.ts: the same
 * options, aliases and entry points; bench/lib/bundles.ts runs esbuild's API with them). Sizes only: they are
 * exact on any machine. The cold import times (≤ 100 ms) are `npm run bench`'s (they depend on the machine).
 */
const KB = 1024;
const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

/** What a bundle exceeds, with where its weight comes from; empty when it fits. */
function overBudget(bundle: BuiltBundle, budget: { rawKb: number }): string[] {
  const misses = bundle.rawBytes > budget.rawKb * KB ? [`${kb(bundle.rawBytes)} > ${budget.rawKb} KB`] : [];
  if (misses.length === 0) return [];
  const heaviest = heaviestInputs(bundle)
    .map(({ input, bytes }) => `${input} ${kb(bytes)}`)
    .join(', ');
  return [`${bundle.name} (${bundle.kind}): ${misses.join(', ')}; heaviest inputs: ${heaviest}`];
}

describe('function bundle budgets', () => {
  const entries = functionEntries();
  let bundles = new Map<string, BuiltBundle>();
  let dispose = () => {};

  beforeAll(async () => {
    const built = await bundleAll();
    bundles = new Map(built.bundles.map((bundle) => [bundle.name, bundle]));
    dispose = built.dispose;
  });

  afterAll(() => dispose());

  it("bundles every function the stacks deploy: API handlers, the $default route's, queue workers, jobs and the trigger", () => {
    expect([...bundles.keys()]).toEqual(entries.map((fn) => fn.name));
    expect(entries.filter((fn) => fn.kind === 'api').length).toBeGreaterThan(30);
    expect(entries.map((fn) => fn.name)).toEqual(
      expect.arrayContaining([
        'heartbeat',
        'routeNotFound',
        'sunatValidationWorker',
        'outboxSweeperJob',
        'preTokenGeneration',
      ]),
    );
  });

  it('carries the OpenTelemetry SDK and its OTLP exporter in every bundle, so that the cold import measures them', () => {
    for (const bundle of bundles.values()) {
      const packages = heaviestInputs(bundle, 1000).map(({ input }) => input);
      expect(packages, bundle.name).toEqual(
        expect.arrayContaining([
          '@opentelemetry/sdk-trace',
          '@opentelemetry/exporter-trace-otlp-http',
          '@opentelemetry/context-async-hooks',
        ]),
      );
    }
  });

  it('allows more only to functions that exist, each with its reason', () => {
    for (const [name, exception] of Object.entries(BUNDLE_BUDGET_EXCEPTIONS)) {
      expect(entries.map((fn) => fn.name)).toContain(name);
      expect(exception.reason.length).toBeGreaterThan(10);
    }
  });

  for (const fn of entries) {
    const budget = budgetOf(fn);
    it(`${fn.name} (${fn.kind}) fits in ${budget.rawKb} KB`, () => {
      const bundle = bundles.get(fn.name);
      expect(bundle, `${fn.name} was not bundled`).toBeDefined();
      expect(overBudget(bundle!, budget)).toEqual([]);
    });
  }
});
