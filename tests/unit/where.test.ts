import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { routes } from '@portal/shared';
import { locate } from '../../scripts/where.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The paths an answer names, one per indented line. */
function pathsIn(answer: string): string[] {
  return answer
    .split('\n')
    .filter((line) => line.startsWith('    ') && line.trim() !== '—')
    .map((line) => line.trim().replace(/:\d+$/, ''));
}

describe('npm run where', () => {
  test("names an approval's declaration, handler, use case, repositories, stand-ins and tests, all of which exist", () => {
    const answer = locate('approveInvoice')!;

    expect(answer).toContain('shared/src/routes/review.ts:');
    expect(answer).toContain(`functions/src/handlers/${routes.approveInvoice.handler}.ts`);
    expect(answer).toMatch(/functions\/src\/use-cases\/\S+/);
    expect(answer).toMatch(/functions\/src\/repositories\/\S+/);
    expect(answer).toMatch(/tests\/integration\/\S+\.test\.ts/);
    for (const file of pathsIn(answer)) expect(existsSync(path.join(ROOT, file)), file).toBe(true);
  });

  test('every route of the manifest is found, with stand-ins the tree has', () => {
    for (const route of Object.values(routes)) {
      const answer = locate(route.id);
      expect(answer, route.id).not.toBeNull();
      expect(answer, route.id).not.toContain('no existe');
      expect(answer, route.id).toContain(`functions/src/handlers/${route.handler}.ts`);
    }
  });

  test('a piece of a path finds every route under it; nothing matching answers null', () => {
    const answer = locate('/intake-batches')!;
    expect(answer.split('\n\n').length).toBeGreaterThan(1);
    expect(locate('no-such-route')).toBeNull();
  });
});
