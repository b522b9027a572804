import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  advanceStageClock,
  describeClockOffset,
  parseClockAdvance,
  resetStageClock,
  stageClockOffset,
  stageNow,
} from '../../local/runtime/stage-clock.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-stage-clock-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('npm run clock (the local stage’s clock)', () => {
  it.each([
    ['+8d', 8 * 86_400],
    ['8d', 8 * 86_400],
    ['+36h', 36 * 3_600],
    ['+90m', 90 * 60],
  ])('reads %s as %i seconds forward', (text, seconds) => {
    expect(parseClockAdvance(text)).toBe(seconds);
  });

  it.each(['-1d', '+8', 'mañana', '+1.5d', '+8w', ''])(
    'refuses «%s»: the clock only moves forward, in d, h or m',
    (text) => {
      expect(() => parseClockAdvance(text)).toThrow(/solo avanza/);
    },
  );

  it('adds each advance to the offset, and reset puts the stage back on real time', async () => {
    expect(stageClockOffset(dataDir)).toBe(0);

    await advanceStageClock(dataDir, parseClockAdvance('+8d'));
    await advanceStageClock(dataDir, parseClockAdvance('+2h'));

    expect(stageClockOffset(dataDir)).toBe(8 * 86_400 + 2 * 3_600);
    expect(stageNow(dataDir).getTime() - Date.now()).toBeGreaterThan(8 * 86_400_000);
    expect(describeClockOffset(stageClockOffset(dataDir))).toBe('adelantado 8 d 2 h');
    await resetStageClock(dataDir);
    expect(stageClockOffset(dataDir)).toBe(0);
    expect(describeClockOffset(0)).toBe('hora real');
  });
});
