import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import type { LocalOutputs } from '../../infra/local/outputs.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const START_TIMEOUT_MS = 240_000;

interface Slot {
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
async function acquireSlot(): Promise<Slot> {
  const slots: Omit<Slot, 'lock'>[] =
    process.env.TEST_STAGE_DIR || process.env.TEST_PORT_BASE
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
        ];
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
    return { ...slot, lock };
  }
  throw new Error('Every local test stage slot is in use by another test run on this machine');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

interface Started {
  outputs: LocalOutputs;
  child: ChildProcess;
  lock: string;
}

/**
 * Started once per vitest run, whichever project asks first; stopped when the last one is done.
 * Vitest loads a global-setup file once per project, so the shared state lives on globalThis.
 */
const shared = globalThis as typeof globalThis & { portalLocalStage?: { started: Promise<Started>; users: number } };

async function launch(): Promise<Started> {
  const { dataDir: DATA_DIR, portBase: PORT_BASE, lock } = await acquireSlot();
  await rm(DATA_DIR, { recursive: true, force: true });
  await mkdir(DATA_DIR, { recursive: true });
  const log = createWriteStream(path.join(DATA_DIR, 'stage.log'));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'infra/local/start.ts')], {
    cwd: ROOT,
    env: { ...process.env, LOCAL_STAGE_DIR: DATA_DIR, LOCAL_PORT_BASE: PORT_BASE, POWERTOOLS_LOG_LEVEL: 'INFO' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const outputsFile = path.join(DATA_DIR, 'outputs.json');
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!existsSync(outputsFile)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      await rm(lock, { recursive: true, force: true });
      const tail = existsSync(path.join(DATA_DIR, 'stage.log'))
        ? readFileSync(path.join(DATA_DIR, 'stage.log'), 'utf8').slice(-3000)
        : '';
      throw new Error(`The local stage did not start (see ${DATA_DIR}/stage.log):\n${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { outputs: JSON.parse(readFileSync(outputsFile, 'utf8')) as LocalOutputs, child, lock };
}

async function shutdown({ child, lock }: Started): Promise<void> {
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }
  await rm(lock, { recursive: true, force: true });
}

export default async function setup(project: TestProject) {
  shared.portalLocalStage ??= { started: launch(), users: 0 };
  const state = shared.portalLocalStage;
  state.users += 1;
  const stage = await state.started;
  project.provide('localStage', stage.outputs);
  return async () => {
    state.users -= 1;
    if (state.users === 0) {
      shared.portalLocalStage = undefined;
      await shutdown(stage);
    }
  };
}
