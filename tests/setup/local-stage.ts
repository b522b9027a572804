import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import type { LocalOutputs } from '../../infra/local/outputs.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** The test run's own stage, beside a developer's `npm start` (which uses .local and ports 4700+). */
const DATA_DIR = path.join(ROOT, '.local/test-stage');
const PORT_BASE = process.env.TEST_PORT_BASE ?? '4800';
const START_TIMEOUT_MS = 240_000;

interface Started {
  outputs: LocalOutputs;
  child: ChildProcess;
}

/**
 * Started once per vitest run, whichever project asks first; stopped when the last one is done.
 * Vitest loads a global-setup file once per project, so the shared state lives on globalThis.
 */
const shared = globalThis as typeof globalThis & { portalLocalStage?: { started: Promise<Started>; users: number } };

async function launch(): Promise<Started> {
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
      const tail = existsSync(path.join(DATA_DIR, 'stage.log'))
        ? readFileSync(path.join(DATA_DIR, 'stage.log'), 'utf8').slice(-3000)
        : '';
      throw new Error(`The local stage did not start (see ${DATA_DIR}/stage.log):\n${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { outputs: JSON.parse(readFileSync(outputsFile, 'utf8')) as LocalOutputs, child };
}

async function shutdown({ child }: Started): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
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
