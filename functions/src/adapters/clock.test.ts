import { mkdtempSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLOCK_OFFSET_FILE_ENV, clockFromEnv, offsetFileClock, systemClock } from './clock.js';

const dirs: string[] = [];
function offsetFile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-clock-'));
  dirs.push(dir);
  return path.join(dir, 'clock.json');
}
/** Replaced whole, as the stage writes it (a temporary file renamed over it). */
function setOffset(file: string, offsetSeconds: number) {
  writeFileSync(`${file}.tmp`, JSON.stringify({ offsetSeconds }));
  renameSync(`${file}.tmp`, file);
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const REAL = Date.parse('2026-11-26T15:00:00.000Z');

describe('the clock port', () => {
  it('runs on real time while the stage has no offset file', () => {
    const clock = offsetFileClock(offsetFile(), () => REAL);

    expect(clock().toISOString()).toBe('2026-11-26T15:00:00.000Z');
  });

  it('adds the offset the stage sets, at the next reading, and follows every later change', () => {
    const file = offsetFile();
    const clock = offsetFileClock(file, () => REAL);
    expect(clock().toISOString()).toBe('2026-11-26T15:00:00.000Z');

    setOffset(file, 8 * 86_400);
    expect(clock().toISOString()).toBe('2026-12-04T15:00:00.000Z');

    setOffset(file, 9 * 86_400 + 3_600);
    expect(clock().toISOString()).toBe('2026-12-05T16:00:00.000Z');

    setOffset(file, 0);
    expect(clock().toISOString()).toBe('2026-11-26T15:00:00.000Z');
  });

  it('refuses an offset file that holds no offset, or one that moves the clock back', () => {
    const file = offsetFile();
    writeFileSync(file, JSON.stringify({ offsetSeconds: -60 }));
    expect(() => offsetFileClock(file, () => REAL)()).toThrow(/offsetSeconds/);
    writeFileSync(file, '{"offset": "8d"}');
    expect(() => offsetFileClock(file, () => REAL)()).toThrow(/offsetSeconds/);
  });

  it('is the system clock in AWS Lambda, whatever names an offset file: no offset can be set there', () => {
    const file = offsetFile();
    setOffset(file, 8 * 86_400);

    const inLambda = clockFromEnv({
      AWS_LAMBDA_FUNCTION_NAME: 'portal-prod-api-getInvoice',
      [CLOCK_OFFSET_FILE_ENV]: file,
    });
    const local = clockFromEnv({ [CLOCK_OFFSET_FILE_ENV]: file });

    expect(inLambda).toBe(systemClock);
    expect(Math.abs(inLambda().getTime() - Date.now())).toBeLessThan(5_000);
    expect(local().getTime() - Date.now()).toBeGreaterThan(8 * 86_400_000 - 5_000);
    expect(clockFromEnv({})).toBe(systemClock);
  });
});
