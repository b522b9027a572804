import path from 'node:path';
import { formatDateTime } from '@portal/shared';
import { offsetFileClock, readClockOffset, type ClockOffset } from '../../functions/src/adapters/clock.js';
import { writeFileAtomic } from '../stand-ins/types.js';

/**
 * The local stage's clock (docs/local-stage.md, "Moving the stage's clock"): one offset for the whole stage, kept in
 * `clock.json` of its data directory, which every handler, worker, job and simulator of the stage reads through the
 * clock port (functions/src/adapters/clock.ts). It only moves forward from real time; `reset` puts it back.
 */
export function stageClockFile(dataDir: string): string {
  return path.join(dataDir, 'clock.json');
}

/** The stage's "now" (real time plus its offset). */
export function stageNow(dataDir: string): Date {
  return offsetFileClock(stageClockFile(dataDir))();
}

/** How far ahead of real time the stage's clock runs, in seconds. */
export function stageClockOffset(dataDir: string): number {
  return readClockOffset(stageClockFile(dataDir));
}

const UNIT_SECONDS = { d: 86_400, h: 3_600, m: 60 } as const;

/** '+8d', '8d', '+36h', '+90m' as seconds; anything else (a negative amount among them) is refused. */
export function parseClockAdvance(text: string): number {
  const match = /^\+?(\d{1,4})([dhm])$/.exec(text.trim());
  if (!match) {
    throw new Error(
      `«${text}» no es un avance del reloj: use +Nd, +Nh o +Nm (días, horas, minutos), p. ej. +8d; el reloj solo avanza.`,
    );
  }
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
}

async function setOffset(dataDir: string, offsetSeconds: number): Promise<number> {
  const content: ClockOffset = { offsetSeconds, setAt: new Date().toISOString() };
  await writeFileAtomic(stageClockFile(dataDir), `${JSON.stringify(content, null, 2)}\n`);
  return offsetSeconds;
}

/** Moves the stage's clock forward by `seconds` from where it stands; answers the new offset. */
export async function advanceStageClock(dataDir: string, seconds: number): Promise<number> {
  if (!Number.isInteger(seconds) || seconds < 0) throw new Error('el reloj del entorno local solo avanza');
  return setOffset(dataDir, stageClockOffset(dataDir) + seconds);
}

/** Puts the stage's clock back on real time. */
export async function resetStageClock(dataDir: string): Promise<void> {
  await setOffset(dataDir, 0);
}

/** The offset as a person reads it: '+8 d 2 h', or 'hora real'. */
export function describeClockOffset(seconds: number): string {
  if (seconds === 0) return 'hora real';
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  const parts = [days ? `${days} d` : '', hours ? `${hours} h` : '', minutes ? `${minutes} min` : ''].filter(Boolean);
  return `adelantado ${parts.join(' ') || `${seconds} s`}`;
}

/** One line saying where the stage's clock stands. */
export function stageClockStatus(dataDir: string): string {
  const offset = stageClockOffset(dataDir);
  const now = formatDateTime(stageNow(dataDir).toISOString(), { zone: true });
  return `Reloj del entorno local: ${now}, ${describeClockOffset(offset)}.`;
}
