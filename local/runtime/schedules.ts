import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SCHEDULES, type ScheduleDef } from '@portal/shared';
import { ROOT_DIR } from './config.js';
import type { RunningService } from '../stand-ins/types.js';

/**
 * EventBridge's rules on this machine: each job of shared SCHEDULES runs on its own timer (every
 * LOCAL_SCHEDULE_SECONDS when set to a number, at its AWS period (everyMinutes) when set to `aws`, else its
 * localEverySeconds or everyMinutes; a daily job at its `dailyAtUtc` of the real clock, whatever
 * LOCAL_SCHEDULE_SECONDS says; on no timer at all when it is `off`), never two runs of one job at a time. The SAP simulator's
 * `POST /__control/schedules/{id}` runs one now, for tests and demos.
 */
export async function startSchedules(
  sap: { setScheduleRunner(run: (id: string) => Promise<void>): void },
  log: (line: string) => void,
): Promise<RunningService> {
  const jobs = new Map<string, () => Promise<void>>();
  const timers: NodeJS.Timeout[] = [];
  for (const def of Object.values(SCHEDULES) as ScheduleDef[]) {
    const job = (await import(pathToFileURL(path.join(ROOT_DIR, 'functions/src/jobs', `${def.handler}.ts`)).href)) as {
      handler: (event: unknown) => Promise<unknown>;
    };
    // Runs one after another: a run asked for while one is under way starts when it ends.
    let last: Promise<void> = Promise.resolve();
    const run = () => {
      const next = last
        .catch(() => undefined)
        .then(() =>
          job.handler({
            source: 'aws.events',
            'detail-type': 'Scheduled Event',
            // As EventBridge sends it: the rule's ARN (the job's trace span is named after it).
            resources: [`arn:aws:events:${process.env.AWS_REGION ?? 'us-east-1'}:000000000000:rule/${def.id}`],
            detail: {},
            time: new Date().toISOString(),
          }),
        )
        .then(
          () => undefined,
          (error: Error) => {
            log(`[${def.id}] error: ${error.message}`);
            throw error;
          },
        );
      last = next;
      return next;
    };
    jobs.set(def.id, run);
    // Driven only (the test run's stage): each job runs when asked through the control endpoint, never on a timer.
    if (process.env.LOCAL_SCHEDULE_SECONDS === 'off') continue;
    if (def.dailyAtUtc) {
      const [hour, minute] = def.dailyAtUtc.split(':').map(Number) as [number, number];
      const index = timers.length;
      const next = () => {
        const timer = setTimeout(
          () => {
            run().catch(() => undefined);
            next();
          },
          msUntilDaily(hour, minute, Date.now()),
        );
        timer.unref();
        timers[index] = timer;
      };
      next();
      continue;
    }
    const seconds = periodSeconds(def, process.env.LOCAL_SCHEDULE_SECONDS);
    const timer = setInterval(() => run().catch(() => undefined), seconds * 1000);
    timer.unref();
    timers.push(timer);
  }
  sap.setScheduleRunner(async (id) => {
    const run = jobs.get(id);
    if (!run) throw new Error(`no schedule ${id}`);
    await run();
  });
  return {
    name: 'schedules',
    endpoint: 'timers',
    stop: async () => {
      for (const timer of timers) clearTimeout(timer);
    },
  };
}

/**
 * A periodic job's period here: LOCAL_SCHEDULE_SECONDS's number of seconds, its AWS period when that is `aws`,
 * else its localEverySeconds or its AWS period.
 */
export function periodSeconds(def: ScheduleDef, setting: string | undefined): number {
  if (setting === 'aws') return def.everyMinutes * 60;
  return Number(setting) || def.localEverySeconds || def.everyMinutes * 60;
}

/** Milliseconds from `now` to the next hh:mm UTC (a full day when it is that time now). */
export function msUntilDaily(hour: number, minute: number, now: number): number {
  const day = 86_400_000;
  const today = new Date(now);
  const at = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), hour, minute);
  return at > now ? at - now : at + day - now;
}
