import path from 'node:path';
import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import { RUNTIME_ENV, SCHEDULES, type ScheduleDef } from '@portal/shared';
import { PortalFunction, type FunctionGroupProps } from './portal-function.js';

export type ScheduleKey = keyof typeof SCHEDULES;

/** `bind` takes a job's declaration: SCHEDULES' `uses`. */
export interface SchedulesProps extends FunctionGroupProps {
  /** Absolute path of functions/src/jobs: a schedule's entry is `<jobsDir>/<def.handler>.ts`. */
  readonly jobsDir: string;
}

/**
 * One function per job of shared SCHEDULES, invoked by an EventBridge rule every `everyMinutes`, or once a day at
 * `dailyAtUtc` (a cron rule).
 */
export class Schedules extends Construct {
  readonly functions: ReadonlyMap<ScheduleKey, PortalFunction>;

  constructor(scope: Construct, id: string, props: SchedulesProps) {
    super(scope, id);
    const functions = new Map<ScheduleKey, PortalFunction>();
    for (const [key, def] of Object.entries(SCHEDULES) as [ScheduleKey, ScheduleDef][]) {
      const daily = def.dailyAtUtc ? /^(\d{2}):(\d{2})$/.exec(def.dailyAtUtc) : null;
      if (def.dailyAtUtc && !daily) throw new Error(`${def.id}: dailyAtUtc must be hh:mm, not ${def.dailyAtUtc}`);
      const fn = new PortalFunction(this, `${def.id}Job`, {
        name: `job-${def.handler}`,
        entry: path.join(props.jobsDir, `${def.handler}.ts`),
        description: daily
          ? `Tarea programada ${def.id} (cada día a las ${def.dailyAtUtc} UTC)`
          : `Tarea programada ${def.id} (cada ${def.everyMinutes} min)`,
        timeout: Duration.minutes(5),
        environment: { [RUNTIME_ENV.stage]: props.stage },
        retain: props.retain,
      });
      props.bind(fn, def.uses);
      new events.Rule(this, `${def.id}Rule`, {
        description: daily
          ? `Portal de Proveedores: ${def.id} cada día a las ${def.dailyAtUtc} UTC`
          : `Portal de Proveedores: ${def.id} cada ${def.everyMinutes} minutos`,
        schedule: daily
          ? events.Schedule.cron({ minute: String(Number(daily[2])), hour: String(Number(daily[1])) })
          : events.Schedule.rate(Duration.minutes(def.everyMinutes)),
        targets: [new targets.LambdaFunction(fn.function, { retryAttempts: 2, maxEventAge: Duration.hours(1) })],
      });
      functions.set(key, fn);
    }
    this.functions = functions;
  }
}
