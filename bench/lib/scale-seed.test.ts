import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SEED_CHUNK, SEED_VERSION, readCheckpoint, seedChunks } from './scale-seed.js';

describe('the scale suite’s kept seed', () => {
  const dirs: string[] = [];
  const dir = () => {
    const created = mkdtempSync(path.join(os.tmpdir(), 'scale-seed-'));
    dirs.push(created);
    return created;
  };
  afterEach(() => {
    for (const created of dirs.splice(0)) rmSync(created, { recursive: true, force: true });
  });

  it('grows from what is there to what is asked, a chunk at a time, without gaps or overlaps', () => {
    const chunks = seedChunks(10_000, 10_000 + 2 * SEED_CHUNK + 7);
    expect(chunks).toEqual([
      [10_000, 10_000 + SEED_CHUNK],
      [10_000 + SEED_CHUNK, 10_000 + 2 * SEED_CHUNK],
      [10_000 + 2 * SEED_CHUNK, 10_000 + 2 * SEED_CHUNK + 7],
    ]);
    expect(seedChunks(5_000, 5_000)).toEqual([]);
    expect(seedChunks(6_000, 5_000)).toEqual([]);
  });

  it('starts empty without a checkpoint and resumes from one', () => {
    const kept = dir();
    expect(readCheckpoint(kept, 'read').invoices).toBe(0);
    writeFileSync(
      path.join(kept, 'scale-seed.json'),
      JSON.stringify({
        version: SEED_VERSION,
        invoices: 75_000,
        seconds: 900,
        searchItems: {},
        searchPartitions: 'read',
      }),
    );
    expect(readCheckpoint(kept, 'read')).toMatchObject({ invoices: 75_000, seconds: 900 });
  });

  it('refuses a table seeded by another version or with other search items, rather than measuring it', () => {
    const kept = dir();
    writeFileSync(
      path.join(kept, 'scale-seed.json'),
      JSON.stringify({ version: SEED_VERSION - 1, invoices: 1, seconds: 1, searchItems: {}, searchPartitions: 'read' }),
    );
    expect(() => readCheckpoint(kept, 'read')).toThrow(/seed version/);
    writeFileSync(
      path.join(kept, 'scale-seed.json'),
      JSON.stringify({ version: SEED_VERSION, invoices: 1, seconds: 1, searchItems: {}, searchPartitions: 'all' }),
    );
    expect(() => readCheckpoint(kept, 'read')).toThrow(/seed version/);
  });
});
