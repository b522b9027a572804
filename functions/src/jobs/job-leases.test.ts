import { describe, expect, it } from 'vitest';
import type { StoredExportJob } from '../repositories/export-jobs.js';
import type { StoredIntakeBatch } from '../repositories/intake-batches.js';
import { makeJobLeaseSweeper } from './job-leases.js';

const NOW = new Date('2026-03-05T15:10:00.000Z');

function batchOf(id: string, attempts: number): StoredIntakeBatch {
  return {
    id,
    attempts,
    status: 'PROCESSING',
    leaseOwner: 'crashed-run',
    leaseUntil: '2026-03-05T15:09:40.000Z',
  } as StoredIntakeBatch;
}

function setUp(lapsed: StoredIntakeBatch[], options: { movedSince?: string[] } = {}) {
  const sent: unknown[] = [];
  const ended: { id: string; status: string; code: string }[] = [];
  const postponed: { id: string; leaseUntil: string; until: string }[] = [];
  const sweeper = makeJobLeaseSweeper({
    batches: {
      lapsed: async (now) => {
        expect(now).toBe(NOW.toISOString());
        return lapsed;
      },
      postpone: async (id, leaseUntil, until) => {
        if (options.movedSince?.includes(id)) return false;
        postponed.push({ id, leaseUntil, until });
        return true;
      },
      end: async (id, status, error) => {
        if (options.movedSince?.includes(id)) return false;
        ended.push({ id, status, code: error.code });
        return true;
      },
    },
    intakeBatchesQueue: { send: async (body) => void sent.push(body) },
    clock: () => NOW,
    log: { info: () => undefined, warn: () => undefined },
    maxAttempts: 5,
    resendAfterMs: 30_000,
  });
  return { sweeper, sent, ended, postponed };
}

describe('the sweeper of lapsed job leases', () => {
  it('hands a lapsed export to a worker again, and ends FAILED one whose runs kept stopping', async () => {
    const sent: unknown[] = [];
    const failed: string[] = [];
    const exportOf = (id: string, attempts: number) =>
      ({ id, userId: 'u-1', attempts, status: 'RUNNING', leaseUntil: '2026-03-05T15:09:00.000Z' }) as StoredExportJob;
    const sweeper = makeJobLeaseSweeper({
      batches: { lapsed: async () => [], postpone: async () => true, end: async () => true },
      intakeBatchesQueue: { send: async () => undefined },
      exports: {
        lapsed: async () => [exportOf('e-1', 1), exportOf('e-2', 5)],
        postpone: async () => true,
        fail: async (job) => void failed.push(job.id),
      },
      exportsQueue: { send: async (body) => void sent.push(body) },
      clock: () => NOW,
      log: { info: () => undefined, warn: () => undefined },
      maxAttempts: 5,
      resendAfterMs: 30_000,
    });
    expect(await sweeper.sweep()).toEqual({ resumed: 1, failed: 1 });
    expect(sent).toEqual([{ userId: 'u-1', exportId: 'e-1' }]);
    expect(failed).toEqual(['e-2']);
  });

  it('hands a batch whose run stopped to a worker again, and keeps it from being sent again meanwhile', async () => {
    const { sweeper, sent, postponed } = setUp([batchOf('b-1', 1)]);
    expect(await sweeper.sweep()).toEqual({ resumed: 1, failed: 0 });
    expect(sent).toEqual([{ batchId: 'b-1' }]);
    expect(postponed).toEqual([
      { id: 'b-1', leaseUntil: '2026-03-05T15:09:40.000Z', until: '2026-03-05T15:10:30.000Z' },
    ]);
  });

  it('ends FAILED a batch whose runs kept stopping, and sends it so that its worker tells the uploader', async () => {
    const { sweeper, sent, ended, postponed } = setUp([batchOf('b-2', 5)]);
    expect(await sweeper.sweep()).toEqual({ resumed: 0, failed: 1 });
    expect(ended).toEqual([{ id: 'b-2', status: 'FAILED', code: 'ERROR_INTAKE_BATCH_FAILED' }]);
    expect(postponed).toEqual([]);
    expect(sent).toEqual([{ batchId: 'b-2' }]);
  });

  it('sends nothing for a batch that moved since it was read (its run renewed, or another sweep took it)', async () => {
    const { sweeper, sent } = setUp([batchOf('b-3', 1), batchOf('b-4', 7)], { movedSince: ['b-3', 'b-4'] });
    expect(await sweeper.sweep()).toEqual({ resumed: 0, failed: 0 });
    expect(sent).toEqual([]);
  });
});
