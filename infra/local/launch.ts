import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { ROOT_DIR } from './config.js';
import type { LocalOutputs } from './outputs.js';
import { createLogStream } from './services/types.js';

export interface LaunchOptions {
  /** Data directory, emptied first (the stage starts fresh and seeds its demo data). */
  readonly dataDir: string;
  readonly portBase: string;
  /** Extra environment of the stage process. */
  readonly env?: Readonly<Record<string, string>>;
  /** Extra Node flags of the stage process (e.g. `--cpu-prof` to profile it under a benchmark). */
  readonly nodeArgs?: readonly string[];
  /** @default 240 s */
  readonly startTimeoutMs?: number;
}

export interface LaunchedStage {
  readonly outputs: LocalOutputs;
  /** The stage process's output (stdout and stderr). */
  readonly logFile: string;
  stop(): Promise<void>;
}

/**
 * Starts `npm start`'s local stage in a child process (its own event loop, as in production the functions
 * do not share one with their callers), waits for its outputs.json, and stops it on demand. Used by the
 * test run and by `npm run bench`.
 */
export async function launchLocalStage(options: LaunchOptions): Promise<LaunchedStage> {
  const { dataDir, portBase } = options;
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  const logFile = path.join(dataDir, 'stage.log');
  const log = createLogStream(logFile);
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), '--import', 'tsx', path.join(ROOT_DIR, 'infra/local/start.ts')],
    {
      cwd: ROOT_DIR,
      env: { ...process.env, ...options.env, LOCAL_STAGE_DIR: dataDir, LOCAL_PORT_BASE: portBase },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    }
  };

  const outputsFile = path.join(dataDir, 'outputs.json');
  const deadline = Date.now() + (options.startTimeoutMs ?? 240_000);
  while (!existsSync(outputsFile)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-3000) : '';
      throw new Error(`The local stage did not start (see ${logFile}):\n${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { outputs: JSON.parse(readFileSync(outputsFile, 'utf8')) as LocalOutputs, logFile, stop };
}
