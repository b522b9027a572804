import type { SCHEDULES } from '@portal/shared';
import { stage } from './stage.js';
import { until, type UntilOptions } from './until.js';

/** A scheduled job of shared SCHEDULES, by its EventBridge rule's id. */
export type ScheduleId = (typeof SCHEDULES)[keyof typeof SCHEDULES]['id'];

interface ScheduleState {
  readonly run: number;
  readonly completed: number;
  readonly lastError: string | null;
}

async function control(id: ScheduleId, method: 'GET' | 'POST'): Promise<ScheduleState> {
  const response = await fetch(`${stage().endpoints.sap}/__control/schedules/${id}`, { method });
  if (!response.ok) throw new Error(`/__control/schedules/${id}: ${response.status} ${await response.text()}`);
  return (await response.json()) as ScheduleState;
}

/**
 * Runs a scheduled job on the test stage now and waits for that run to end, as EventBridge would run it at its
 * period: the test stage runs its jobs only when asked (LOCAL_SCHEDULE_SECONDS=off, tests/setup/local-stage.ts). A
 * run that failed throws its error. Runs of one job never overlap: one asked while another is under way starts when it
 * ends (local/runtime/schedules.ts).
 */
export async function runSchedule(id: ScheduleId, timeoutMs = 90_000): Promise<void> {
  const { run } = await control(id, 'POST');
  const state = await until(
    async () => {
      const state = await control(id, 'GET');
      return state.completed >= run && state;
    },
    { timeout: timeoutMs, interval: 100, message: `the stage's ${id} to end run ${run}` },
  );
  if (state.lastError) throw new Error(`${id}: ${state.lastError}`);
}

/**
 * Drives `jobs` until `probe` answers (a value, or true): each round runs the jobs once, whole, then asks; a job's
 * effect that needs time to come due (a retry's back-off, a SUNAT recheck's wait) comes in a later round. Fails past
 * the deadline, naming `what`.
 */
export async function driveUntil<T>(
  what: string,
  jobs: readonly ScheduleId[],
  probe: () => Promise<T | null | undefined | false>,
  options: Omit<UntilOptions, 'message'> = {},
): Promise<T> {
  const driven = async () => {
    const value = await probe();
    if (value) return value;
    for (const job of jobs) await runSchedule(job);
    return probe();
  };
  const message = `${what}, driving ${jobs.join(', ')}`;
  return (await until(driven, { timeout: 60_000, ...options, message })) as T;
}
