import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@portal/shared';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Codes whose producing path belongs to an issue that has not landed yet: each names its issue. */
const PRODUCED_BY_LATER_ISSUES: Record<string, string> = {};

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (entry === 'node_modules') return [];
    if (statSync(full).isDirectory()) return testFiles(full);
    return entry.endsWith('.test.ts') && entry !== 'error-coverage.test.ts' ? [full] : [];
  });
}

/**
 * Every error code of the catalogue is asserted by at least one test (spec §8: each code produced by
 * a tested path), except the ones listed above until their issue lands.
 */
describe('error code coverage', () => {
  const sources = ['tests', 'functions', 'shared'].flatMap((dir) => testFiles(path.join(ROOT, dir)));
  const text = sources.map((file) => readFileSync(file, 'utf8')).join('\n');

  it.each(ERROR_CODES.filter((code) => !(code in PRODUCED_BY_LATER_ISSUES)).map((code) => [code]))(
    '%s is asserted by a test',
    (code) => {
      expect(text.includes(`'${code}'`)).toBe(true);
    },
  );

  it('lists as pending only codes that no test asserts yet', () => {
    expect(Object.keys(PRODUCED_BY_LATER_ISSUES).filter((code) => text.includes(`'${code}'`))).toEqual([]);
  });
});
