import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { BadRequestError } from '@portal/shared';
import { parseSunatDocument } from '../../functions/src/ubl/index.js';
import { ROOT_DIR } from '../../local/runtime/config.js';
import { deeplyNested, largeFactura, manyElements } from '../../tests/fixtures/ubl/generate.js';
import { percentile, type BenchSuite, type Figure } from '../lib/figures.js';

/** How long one repetition parses the large invoice (after a warm-up of the same length). */
const WINDOW_MS = { full: 2_000, quick: 500 };
/** The parser's promise: a hostile file is refused in under 100 ms. */
const REFUSAL_MAX_MS = 100;

/**
 * Hostile files. Entity expansion and external entities are refused by the screen before any parsing; deep
 * nesting at the 64th level. The element flood is different: it is refused at the 300,000th element, after
 * parsing up to there, so its time grows with the file (bounded by the 5 MB limit) and it carries no target.
 */
function hostileInputs(): { kind: string; bytes: Uint8Array; code: string; targeted: boolean }[] {
  const fixture = (name: string) => new Uint8Array(readFileSync(path.join(ROOT_DIR, 'tests/fixtures/ubl', name)));
  return [
    {
      kind: 'billionLaughs',
      bytes: fixture('billion-laughs.xml'),
      code: 'ERROR_XML_FORBIDDEN_CONTENT',
      targeted: true,
    },
    { kind: 'externalEntity', bytes: fixture('xxe.xml'), code: 'ERROR_XML_FORBIDDEN_CONTENT', targeted: true },
    { kind: 'deepNesting', bytes: deeplyNested(100_000), code: 'ERROR_XML_TOO_DEEP', targeted: true },
    { kind: 'elementFlood', bytes: manyElements(400_000), code: 'ERROR_XML_TOO_LARGE', targeted: false },
  ];
}

/** Milliseconds `parse` took to refuse `bytes` with `code`; throws if it accepted them or refused otherwise. */
function timeRefusal(kind: string, bytes: Uint8Array, code: string): number {
  const started = performance.now();
  try {
    parseSunatDocument(bytes);
  } catch (error) {
    const elapsed = performance.now() - started;
    const actual = error instanceof BadRequestError ? error.code : String(error);
    if (actual !== code) throw new Error(`${kind}: refused with ${actual}, expected ${code}`);
    return elapsed;
  }
  throw new Error(`${kind}: the parser accepted a hostile document`);
}

/**
 * Intake's XML reading (functions/src/ubl): a 2,000-line factura of more than 1 MB parsed back to back, and
 * hostile files (entity expansion, external entity, 100,000 nested elements, an element flood) refused.
 */
export const suite: BenchSuite = {
  name: 'ubl',
  async run(context) {
    const large = largeFactura(2000);
    const windowMs = context.quick ? WINDOW_MS.quick : WINDOW_MS.full;
    const parseFor = (ms: number) => {
      const durations: number[] = [];
      const end = performance.now() + ms;
      while (performance.now() < end) {
        const started = performance.now();
        const document = parseSunatDocument(large.bytes);
        durations.push(performance.now() - started);
        if (document.payableAmount !== large.payableAmount) throw new Error('large factura: wrong total');
      }
      return durations;
    };
    parseFor(windowMs);

    const rates: number[] = [];
    const p50s: number[] = [];
    const p99s: number[] = [];
    for (let index = 0; index < context.repeats; index += 1) {
      const durations = parseFor(windowMs);
      const total = durations.reduce((sum, ms) => sum + ms, 0);
      rates.push(Math.round((durations.length / total) * 1000 * 10) / 10);
      p50s.push(round(percentile(durations, 50)));
      p99s.push(round(percentile(durations, 99)));
    }
    context.log(`2,000-line factura (${(large.bytes.length / 1024).toFixed(0)} KB): ${rates.join(' / ')} docs/s`);

    const figures: Figure[] = [
      {
        id: 'ubl.large.kb',
        label: 'Large factura size (2,000 lines)',
        unit: 'KB',
        samples: [round(large.bytes.length / 1024)],
      },
      { id: 'ubl.large.docsPerSecond', label: 'Large factura parse rate', unit: 'docs/s', samples: rates },
      { id: 'ubl.large.p50', label: 'Large factura parse p50', unit: 'ms', samples: p50s },
      { id: 'ubl.large.p99', label: 'Large factura parse p99', unit: 'ms', samples: p99s },
    ];
    for (const { kind, bytes, code, targeted } of hostileInputs()) {
      timeRefusal(kind, bytes, code);
      const samples = Array.from({ length: context.repeats }, () => round(timeRefusal(kind, bytes, code)));
      figures.push({
        id: `ubl.refuse.${kind}`,
        label: `Refusal of ${kind} (${code})`,
        unit: 'ms',
        samples,
        ...(targeted ? { target: { max: REFUSAL_MAX_MS } } : {}),
      });
    }
    return figures;
  },
};

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
