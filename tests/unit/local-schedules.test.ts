import { describe, expect, it } from 'vitest';
import { SCHEDULES } from '@portal/shared';
import { msUntilDaily, periodSeconds } from '../../local/runtime/schedules.js';

describe('the local stage’s daily jobs', () => {
  it('wait for the next time of day in UTC, a whole day when it is that time now', () => {
    const at = (iso: string) => new Date(iso).getTime();
    expect(msUntilDaily(12, 0, at('2026-11-21T11:00:00.000Z'))).toBe(3_600_000);
    expect(msUntilDaily(12, 0, at('2026-11-21T12:00:00.000Z'))).toBe(86_400_000);
    expect(msUntilDaily(12, 0, at('2026-11-21T12:00:01.000Z'))).toBe(86_399_000);
    // Across the month's end.
    expect(msUntilDaily(12, 0, at('2026-11-30T23:00:00.000Z'))).toBe(13 * 3_600_000);
  });

  it('send the staff’s digest at 07:00 Lima (12:00 UTC)', () => {
    expect(SCHEDULES.dailyDigest).toMatchObject({ id: 'DailyDigest', dailyAtUtc: '12:00' });
  });

  it('run the periodic jobs at their local period, at a given one, or at AWS’s (LOCAL_SCHEDULE_SECONDS)', () => {
    const { outboxSweeper, paymentSync } = SCHEDULES;
    expect(periodSeconds(outboxSweeper, undefined)).toBe(3);
    expect(periodSeconds(paymentSync, undefined)).toBe(15 * 60);
    expect(periodSeconds(outboxSweeper, '20')).toBe(20);
    expect(periodSeconds(outboxSweeper, 'aws')).toBe(60);
    expect(periodSeconds(SCHEDULES.acquirerConformity, 'aws')).toBe(15 * 60);
    // Anything else is not a period: the local ones stay.
    expect(periodSeconds(outboxSweeper, 'often')).toBe(3);
  });
});
