import { describe, expect, it } from 'vitest';
import { evaluate, percentile, summarize } from './figures.js';
import { renderMarkdown, renderSummary, type BenchReport } from './report.js';

describe('figures', () => {
  it('summarizes samples as min, median and max, whatever their order', () => {
    expect(summarize([30, 10, 20])).toEqual({ min: 10, median: 20, max: 30 });
    expect(summarize([4, 1, 3, 2])).toEqual({ min: 1, median: 2.5, max: 4 });
    expect(() => summarize([])).toThrow();
  });

  it('checks the median against the target, not the best or worst sample', () => {
    const figure = { id: 'api.list.ratio', label: 'ratio', unit: 'ratio' as const, target: { max: 1.3 } };
    expect(evaluate({ ...figure, samples: [1.0, 1.2, 5.0] }).pass).toBe(true);
    expect(evaluate({ ...figure, samples: [1.0, 1.4, 1.5] }).pass).toBe(false);
    expect(evaluate({ ...figure, samples: [1.3] }).pass).toBe(true);
    expect(evaluate({ id: 'x', label: 'x', unit: 'ms', samples: [1] }).pass).toBeUndefined();
    expect(evaluate({ id: 'x', label: 'x', unit: 'docs/s', samples: [90, 110], target: { min: 100 } }).pass).toBe(true);
  });

  it('takes the nearest-rank percentile', () => {
    const samples = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(percentile(samples, 50)).toBe(50);
    expect(percentile(samples, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
  });
});

describe('report', () => {
  const report: BenchReport = {
    date: '2026-11-22T10:00:00.000Z',
    durationSeconds: 100,
    quick: false,
    repeats: 3,
    suites: ['api'],
    machine: { cpu: 'Test CPU', cores: 2, memoryGb: 8, os: 'Linux', node: 'v20', java: 'openjdk 17' },
    versions: {},
    figures: [
      evaluate({ id: 'api.list.p50.1k', label: 'List p50 (1k)', unit: 'ms', samples: [10, 12, 11] }),
      evaluate({ id: 'api.list.errors', label: 'List errors', unit: 'count', samples: [0, 2, 1], target: { max: 0 } }),
      evaluate({
        id: 'api.list.rps.1k',
        label: 'List throughput (1k)',
        unit: 'req/s',
        samples: [900],
        inSummary: true,
      }),
      evaluate({
        id: 'functions.heartbeat.raw',
        label: 'heartbeat bundle',
        unit: 'KB',
        samples: [266],
        target: { max: 400 },
        inSummary: false,
      }),
    ],
  };

  it('lists every figure with its verdict and counts the targets met', () => {
    const markdown = renderMarkdown(report);
    expect(markdown).toContain('| List p50 (1k) | 11 ms | 10 | 12 |');
    expect(markdown).toContain('| List errors | 1 count | 0 | 2 | ≤ 0 count | ❌ missed |');
    expect(markdown).toContain('1 of 2 targets met.');
  });

  it('summarizes the targeted figures and those chosen for it, with the date and the machine', () => {
    const table = renderSummary(report);
    expect(table.startsWith('# Benchmarks')).toBe(true);
    expect(table).toContain('2026-11-22');
    expect(table).toContain('Test CPU, 2 cores');
    expect(table).toContain('List errors');
    expect(table).toContain('List throughput (1k)');
    expect(table).not.toContain('List p50 (1k)');
    expect(table).not.toContain('heartbeat bundle');
  });
});
