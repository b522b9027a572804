import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { ROOT_DIR, STAGE_NODE_FLAGS } from './config.js';
import type { LocalOutputs } from './outputs.js';
import { createLogStream } from '../stand-ins/types.js';

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
  /** Start on the data directory as it is (a restart after a crash) instead of emptying it. */
  readonly keepData?: boolean;
  /**
   * Run the stage in a process group of its own, so that kill() ends it with every child (DynamoDB Local …)
   * at once. Off by default: a stage in its own group does not get the terminal's Ctrl-C with its launcher.
   */
  readonly ownProcessGroup?: boolean;
}

export interface LaunchedStage {
  readonly outputs: LocalOutputs;
  /** The stage process's output (stdout and stderr). */
  readonly logFile: string;
  stop(): Promise<void>;
  /** Kills the stage's whole process group at once (the stage and every child it started), as a crash would. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `npm start`'s local stage in a child process (its own event loop, as in production the functions
 * do not share one with their callers), waits for its outputs.json, and stops it on demand. Used by the
 * test run and by `npm run bench`.
 */
export async function launchLocalStage(options: LaunchOptions): Promise<LaunchedStage> {
  const { dataDir, portBase } = options;
  if (!options.keepData) await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  // A fresh outputs.json tells that this start is done (a restart finds the last one there).
  await rm(path.join(dataDir, 'outputs.json'), { force: true });
  const logFile = path.join(dataDir, 'stage.log');
  const log = createLogStream(logFile);
  const child = spawn(
    process.execPath,
    [
      ...STAGE_NODE_FLAGS,
      ...(options.nodeArgs ?? []),
      '--import',
      'tsx',
      path.join(ROOT_DIR, 'local/runtime/start.ts'),
    ],
    {
      cwd: ROOT_DIR,
      env: { ...process.env, ...options.env, LOCAL_STAGE_DIR: dataDir, LOCAL_PORT_BASE: portBase },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: options.ownProcessGroup ?? false,
    },
  );
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  /** Signals the stage, and with ownProcessGroup every process of its group (a group already gone is fine). */
  const signal = (name: NodeJS.Signals) => {
    try {
      if (options.ownProcessGroup) process.kill(-child.pid!, name);
      else child.kill(name);
    } catch {
      // Already gone.
    }
  };

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    }
  };

  const kill = async (name: NodeJS.Signals = 'SIGKILL') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    signal(name);
    await exited;
  };

  const outputsFile = path.join(dataDir, 'outputs.json');
  const deadline = Date.now() + (options.startTimeoutMs ?? 240_000);
  while (!existsSync(outputsFile)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      // Stopped as at the end of a run (SIGTERM: the stage stops DynamoDB Local and the others; SIGKILL to it, or to
      // its whole group, after 20 s): a stage killed outright here left DynamoDB Local holding its port, and the next
      // run on the same ports failed to start.
      await stop();
      const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-3000) : '';
      throw new Error(`The local stage did not start (see ${logFile}):\n${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { outputs: JSON.parse(readFileSync(outputsFile, 'utf8')) as LocalOutputs, logFile, stop, kill };
}
