import { readFileSync, statSync } from 'node:fs';

/**
 * The clock port: what "now" is for the portal's business (deadlines, reminders, histories, postings, due lists).
 * Every handler, worker and job reads it instead of `new Date()`; use cases receive it as `clock`.
 *
 * In AWS it is the system clock, always: no offset exists there and none can be set (Lambda sets
 * AWS_LAMBDA_FUNCTION_NAME, and then the offset file is never read, whatever the environment says). The local stage
 * can move its clock forward (docs/local-stage.md, `npm run clock`) so that a person or a test can watch a deadline
 * pass: it names a file of its data directory in CLOCK_OFFSET_FILE_ENV, and this clock adds the offset the file
 * holds. One file per stage: the handlers, workers and jobs (all in the stage's process), the SUNAT and SAP
 * simulators and the tests read the same offset. Token lifetimes and signatures (JWT checks, cognito-local, SUNAT's
 * OAuth tokens, S3 links) keep the real time: they are checked by stand-ins that do not read this clock.
 */
export type Clock = () => Date;

/** The environment variable naming the local stage's offset file; never set in AWS. */
export const CLOCK_OFFSET_FILE_ENV = 'PORTAL_CLOCK_OFFSET_FILE';

/** What the offset file holds: how far ahead of real time the stage's clock runs. */
export interface ClockOffset {
  readonly offsetSeconds: number;
  /** When it was last set (real time), for people reading the file. */
  readonly setAt?: string;
}

export const systemClock: Clock = () => new Date();

/** The offset a file holds: 0 when it is absent; a file that is not one is an error the stage must show. */
export function readClockOffset(file: string): number {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<ClockOffset>;
  const seconds = parsed.offsetSeconds;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
    throw new Error(`${file}: offsetSeconds must be a number of seconds, zero or more`);
  }
  return seconds;
}

/**
 * Real time plus the offset the file holds, read again whenever the file changes (it is replaced by a rename, so a
 * new inode or modification time says so): moving the stage's clock takes effect at the next reading, in every
 * process that reads the file.
 */
export function offsetFileClock(file: string, realNow: () => number = Date.now): Clock {
  let seen: { key: string; offsetMs: number } | null = null;
  return () => {
    const stat = statSync(file, { throwIfNoEntry: false });
    const key = stat ? `${stat.ino}:${stat.mtimeMs}:${stat.size}` : 'absent';
    if (seen?.key !== key) seen = { key, offsetMs: stat ? readClockOffset(file) * 1000 : 0 };
    return new Date(realNow() + seen.offsetMs);
  };
}

/** The clock of this runtime: the system clock in AWS Lambda, else the stage's offset file when one is named. */
export function clockFromEnv(env: NodeJS.ProcessEnv = process.env): Clock {
  if (env.AWS_LAMBDA_FUNCTION_NAME) return systemClock;
  const file = env[CLOCK_OFFSET_FILE_ENV];
  return file ? offsetFileClock(file) : systemClock;
}

/**
 * The clock the functions' modules share, resolved at its first reading (the local stage sets the environment before
 * it loads the handlers, but after modules that import this one may have been loaded).
 */
let resolved: Clock | null = null;
export const clock: Clock = () => (resolved ??= clockFromEnv())();
