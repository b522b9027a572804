import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { launchLocalStage, type LaunchedStage } from '../../local/runtime/launch.js';
import { stageClockFile } from '../../local/runtime/stage-clock.js';
import { isAlive } from '../../local/stand-ins/types.js';
import { TEST_TENANTS } from './parallelism.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const START_TIMEOUT_MS = 240_000;

export interface Slot {
  readonly dataDir: string;
  readonly portBase: string;
  readonly lock: string;
}

/**
 * The test run's own stage, beside a developer's `npm start` (which uses .local and ports 4700+):
 * `.local/test-stage` on ports 4800+, or TEST_STAGE_DIR / TEST_PORT_BASE. When another test run on
 * this machine holds that slot (a lock directory naming a live process), the next free one is taken
 * (`.local/test-stage-N`, ports 5100 + 100·(N-2)), so that two runs never share ports or data.
 */
export async function acquireSlot(options: { extraStage?: boolean } = {}): Promise<Slot> {
  // A test's extra stage of its own (extraStage) takes a free slot of the pool even when the run's stage was pinned.
  const slots: Omit<Slot, 'lock'>[] =
    !options.extraStage && (process.env.TEST_STAGE_DIR || process.env.TEST_PORT_BASE)
      ? [
          {
            dataDir: path.resolve(ROOT, process.env.TEST_STAGE_DIR ?? '.local/test-stage'),
            portBase: process.env.TEST_PORT_BASE ?? '4800',
          },
        ]
      : [
          { dataDir: path.join(ROOT, '.local/test-stage'), portBase: '4800' },
          ...Array.from({ length: 8 }, (_, index) => ({
            dataDir: path.join(ROOT, `.local/test-stage-${index + 2}`),
            // Hundreds from 5100: clear of the ports browsers and fetch refuse (5060, 5061, 6000, …).
            portBase: String(5100 + index * 100),
          })),
        ].filter(
          // ... but never the pinned stage's ports or directory.
          (slot) =>
            !(process.env.TEST_STAGE_DIR || process.env.TEST_PORT_BASE) ||
            (slot.portBase !== (process.env.TEST_PORT_BASE ?? '4800') &&
              slot.dataDir !== path.resolve(ROOT, process.env.TEST_STAGE_DIR ?? '.local/test-stage')),
        );
  await mkdir(path.join(ROOT, '.local'), { recursive: true });
  for (const slot of slots) {
    const lock = `${slot.dataDir}.lock`;
    try {
      await mkdir(lock);
    } catch {
      const owner = Number(existsSync(path.join(lock, 'pid')) ? readFileSync(path.join(lock, 'pid'), 'utf8') : 0);
      if (owner && isAlive(owner)) continue;
      // A lock without its pid yet was taken a moment ago by a run that is about to write it.
      if (!owner && Date.now() - statSync(lock).mtimeMs < 60_000) continue;
      await rm(lock, { recursive: true, force: true });
      try {
        await mkdir(lock);
      } catch {
        continue;
      }
    }
    writeFileSync(path.join(lock, 'pid'), String(process.pid));
    // Ports held by something else (a stage of another checkout, a developer's LOCAL_PORT_BASE): the next slot.
    if (!(await portsFree(Number(slot.portBase)))) {
      await rm(lock, { recursive: true, force: true });
      continue;
    }
    return { ...slot, lock };
  }
  throw new Error('Every local test stage slot is in use by another test run on this machine');
}

/** Whether the ports a stage takes from `base` (base + 0 … base + 19) are free on every interface. */
async function portsFree(base: number): Promise<boolean> {
  for (let port = base; port < base + 20; port += 1) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.unref();
      probe.once('error', () => resolve(false));
      probe.listen({ port, host: '0.0.0.0', exclusive: true }, () => probe.close(() => resolve(true)));
    });
    if (!free) return false;
  }
  return true;
}

/** Gives a slot back to the pool. */
export async function releaseSlot(slot: Pick<Slot, 'lock'>): Promise<void> {
  await rm(slot.lock, { recursive: true, force: true });
}

interface Started {
  stage: LaunchedStage;
  lock: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's stage's data directory: its outputs.json appears there once it is ready (tests/setup/stage-ready.ts). */
    localStageDir: string;
  }
}

/** Where a launch that failed leaves its reason, beside the stage's data directory (which the launch empties). */
export const launchErrorFile = (dataDir: string) => `${dataDir}.launch-error`;

/**
 * Started once per vitest run, whichever project asks first; stopped when the last one is done. The setup does not
 * wait for the stage: the files that need none (unit, infra) run while it starts, and each stage file waits for it
 * in its own setup (tests/setup/stage-ready.ts). Vitest loads a global-setup file once per project, so the shared state
 * lives on globalThis.
 */
const shared = globalThis as typeof globalThis & {
  portalLocalStage?: { slot: Promise<Slot>; started: Promise<Started | null>; users: number };
};

async function launch(slot: Slot): Promise<Started> {
  const { dataDir, portBase, lock } = slot;
  try {
    const stage = await launchLocalStage({
      dataDir,
      portBase,
      env: {
        POWERTOOLS_LOG_LEVEL: 'INFO',
        // No Ley 29623 demo: the clock tests move the stage's clock (local/runtime/stage.ts).
        LOCAL_CONFORMITY_DEMO: 'off',
        // A test tenant for each file that may run at once, and more (tests/setup/tenant.ts).
        LOCAL_TEST_TENANTS: String(TEST_TENANTS),
        // The run's stage is never restarted on its data, which goes with it: DynamoDB Local keeps its tables in
        // memory, and writes three times as fast (the seed of the tenants' worlds, 56 s on disk, takes 19).
        LOCAL_DYNAMODB_IN_MEMORY: 'on',
        // ... and it takes some 55,000 writes (the tenants' worlds, the exports file's 1,040 invoices): with C2 as
        // well, the tenants' seed costs DynamoDB Local 27 s of CPU instead of 34 (docs/testing.md).
        LOCAL_DYNAMODB_COMPILER: 'full',
        // Scheduled jobs run when a test asks (tests/support/schedules.ts), never on a timer: a file's wait ends on
        // what it drove, not on a schedule coming round, and no job runs across another file's data unasked.
        LOCAL_SCHEDULE_SECONDS: 'off',
      },
      startTimeoutMs: START_TIMEOUT_MS,
    });
    return { stage, lock };
  } catch (error) {
    await writeFile(launchErrorFile(dataDir), (error as Error).message);
    await rm(lock, { recursive: true, force: true });
    throw error;
  }
}

/** Takes a slot and clears what an earlier run left there, so that no file reads a stage that is not this run's. */
async function prepare(): Promise<Slot> {
  const slot = await acquireSlot();
  await rm(path.join(slot.dataDir, 'outputs.json'), { force: true });
  await rm(launchErrorFile(slot.dataDir), { force: true });
  // Every run starts on real time, whatever a run that died left on the stage's clock (npm run clock).
  await rm(stageClockFile(slot.dataDir), { force: true });
  return slot;
}

async function shutdown({ stage, lock }: Started): Promise<void> {
  await stage.stop();
  await rm(lock, { recursive: true, force: true });
}

export default async function setup(project: TestProject) {
  if (!shared.portalLocalStage) {
    const slot = prepare();
    // A failed start is said by every stage file that waits for it (its reason is in launchErrorFile).
    shared.portalLocalStage = { slot, started: slot.then(launch).catch(() => null), users: 0 };
  }
  const state = shared.portalLocalStage;
  state.users += 1;
  project.provide('localStageDir', (await state.slot).dataDir);
  return async () => {
    state.users -= 1;
    if (state.users === 0) {
      shared.portalLocalStage = undefined;
      const started = await state.started;
      if (started) await shutdown(started);
    }
  };
}
