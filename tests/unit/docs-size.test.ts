import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/ stays a size people read: its Markdown at most 150 KB in all, and an architecture decision record about a
 * page (context, decision, consequences), linking to measurements instead of holding them. Figures of a benchmark
 * pass belong in bench/results, which `npm run bench` writes.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const DOCS = path.join(ROOT, 'docs');
const DOCS_LIMIT_BYTES = 150 * 1024;
const ADR_LIMIT_BYTES = 4 * 1024;

interface Page {
  readonly file: string;
  readonly bytes: number;
}

function markdownPages(dir: string): Page[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    const stat = statSync(file);
    if (stat.isDirectory()) return markdownPages(file);
    return name.endsWith('.md') ? [{ file: path.relative(ROOT, file), bytes: stat.size }] : [];
  });
}

function largest(pages: readonly Page[], count: number): string {
  return [...pages]
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, count)
    .map((page) => `${page.file} (${page.bytes} bytes)`)
    .join(', ');
}

const pages = markdownPages(DOCS);

describe('the size of docs/', () => {
  it('reads the pages of docs/ and its ADRs', () => {
    expect(pages.length).toBeGreaterThan(30);
    expect(pages.filter((page) => page.file.startsWith('docs/adr/')).length).toBeGreaterThan(10);
  });

  it(`holds at most ${DOCS_LIMIT_BYTES} bytes of Markdown in all`, () => {
    const total = pages.reduce((sum, page) => sum + page.bytes, 0);
    expect(
      total,
      `docs/ has ${total} bytes of Markdown, over ${DOCS_LIMIT_BYTES}: say each thing once, and leave figures to ` +
        `bench/results. Largest pages: ${largest(pages, 5)}`,
    ).toBeLessThanOrEqual(DOCS_LIMIT_BYTES);
  });

  it(`keeps every ADR within ${ADR_LIMIT_BYTES} bytes`, () => {
    const records = pages.filter((page) => /^docs\/adr\/\d{4}-.*\.md$/.test(page.file));
    const over = records.filter((page) => page.bytes > ADR_LIMIT_BYTES);
    expect(
      over.map((page) => page.file),
      `ADRs over ${ADR_LIMIT_BYTES} bytes: ${largest(over, over.length)}. An ADR is context, decision and ` +
        'consequences in about a page, linking to measurements rather than holding tables of figures.',
    ).toEqual([]);
  });
});
