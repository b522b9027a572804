import { Duration } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { METRICS } from '@portal/shared';
import type { PortalFunction } from './portal-function.js';
import type { PortalQueue } from './queues.js';

export const FIVE_MINUTES = Duration.minutes(5);
export const FIFTEEN_MINUTES = Duration.minutes(15);
export const ONE_HOUR = Duration.hours(1);

/** The systems the workers call, each with its product metrics of calls and failed calls. */
export const EXTERNAL_SYSTEMS = [
  { id: 'SunatFailureRate', system: 'SUNAT', calls: METRICS.sunatCalls, failures: METRICS.sunatFailures },
  { id: 'SapFailureRate', system: 'SAP', calls: METRICS.sapCalls, failures: METRICS.sapFailures },
] as const;

/** A product metric (Powertools, namespace PortalProveedores) of a stage. */
export function productMetric(stage: string, metricName: string, period: Duration): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: METRICS.namespace,
    metricName,
    dimensionsMap: { service: METRICS.serviceName, [METRICS.stageDimension]: stage },
    statistic: 'Sum',
    period,
  });
}

/** An SES event count of the portal's configuration set, per hour. */
export function sesMetric(configurationSet: string, metricName: string): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: 'AWS/SES',
    metricName,
    dimensionsMap: { ConfigurationSet: configurationSet },
    statistic: 'Sum',
    period: ONE_HOUR,
  });
}

/** The API's requests, 5xx responses and p99 latency of five minutes. */
export function apiMetrics(apiStage: apigw.HttpStage) {
  return {
    requests: apiStage.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' }),
    serverErrors: apiStage.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' }),
    latencyP99: apiStage.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' }),
  };
}

export interface DashboardWidgetsProps {
  readonly stage: string;
  readonly apiStage: apigw.HttpStage;
  readonly functions: ReadonlyMap<string, PortalFunction>;
  readonly queues: readonly PortalQueue[];
  readonly emailConfigurationSet: string;
  readonly alarms: readonly cloudwatch.Alarm[];
  /** The API latency alarm's threshold, drawn on the latency graph. */
  readonly apiLatencyP99Ms: number;
}

const WIDE = { width: 12, height: 6 } as const;

/** The operators' dashboard: the alarms' status, then the API, the functions, the queues, SUNAT, SAP and e-mail. */
export function addDashboardWidgets(dashboard: cloudwatch.Dashboard, props: DashboardWidgetsProps): void {
  dashboard.addWidgets(
    new cloudwatch.TextWidget({
      markdown: `# Portal de Proveedores (${props.stage})\nAPI, funciones, colas, SUNAT, SAP y correo. Las alarmas se envían al tema SNS de la etapa.`,
      width: 24,
      height: 2,
    }),
  );
  // An alarm status widget shows at most 100 alarms.
  for (let start = 0; start < props.alarms.length; start += 100) {
    dashboard.addWidgets(
      new cloudwatch.AlarmStatusWidget({
        title: start === 0 ? 'Alarmas' : 'Alarmas (continuación)',
        alarms: props.alarms.slice(start, start + 100),
        width: 24,
        height: 6,
      }),
    );
  }
  dashboard.addWidgets(...apiWidgets(props.apiStage, props.apiLatencyP99Ms));
  addFunctionWidgets(dashboard, props.functions);
  dashboard.addWidgets(...queueWidgets(props.queues));
  dashboard.addWidgets(...externalWidgets(props.stage));
  dashboard.addWidgets(
    new cloudwatch.GraphWidget({
      title: 'Correo (SES)',
      left: ['Send', 'Delivery', 'Bounce', 'Complaint', 'Reject'].map((name) =>
        sesMetric(props.emailConfigurationSet, name).with({ label: name }),
      ),
      width: 24,
      height: 6,
    }),
  );
}

function apiWidgets(apiStage: apigw.HttpStage, latencyThresholdMs: number): cloudwatch.IWidget[] {
  const { requests, serverErrors, latencyP99 } = apiMetrics(apiStage);
  return [
    new cloudwatch.GraphWidget({
      title: 'API: solicitudes y errores',
      left: [
        requests.with({ label: 'Solicitudes' }),
        apiStage.metricClientError({ period: FIVE_MINUTES, statistic: 'Sum', label: '4xx' }),
        serverErrors.with({ label: '5xx' }),
      ],
      ...WIDE,
    }),
    new cloudwatch.GraphWidget({
      title: 'API: latencia (ms)',
      left: [
        apiStage.metricLatency({ period: FIVE_MINUTES, statistic: 'p50', label: 'p50' }),
        latencyP99.with({ label: 'p99' }),
      ],
      leftAnnotations: [{ value: latencyThresholdMs, label: 'Alarma p99' }],
      ...WIDE,
    }),
  ];
}

function addFunctionWidgets(dashboard: cloudwatch.Dashboard, functions: ReadonlyMap<string, PortalFunction>): void {
  const byFunction = (metric: (fn: PortalFunction) => cloudwatch.IMetric) =>
    [...functions.entries()].map(([name, fn]) => (metric(fn) as cloudwatch.Metric).with({ label: name }));
  dashboard.addWidgets(
    new cloudwatch.GraphWidget({
      title: 'Funciones: errores',
      left: byFunction((fn) => fn.function.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' })),
      legendPosition: cloudwatch.LegendPosition.RIGHT,
      ...WIDE,
    }),
    new cloudwatch.GraphWidget({
      title: 'Funciones: limitadas (throttles)',
      left: byFunction((fn) => fn.function.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' })),
      legendPosition: cloudwatch.LegendPosition.RIGHT,
      ...WIDE,
    }),
  );
  dashboard.addWidgets(
    new cloudwatch.GraphWidget({
      title: 'Funciones: duración p99 (ms)',
      left: byFunction((fn) => fn.function.metricDuration({ period: FIVE_MINUTES, statistic: 'p99' })),
      legendPosition: cloudwatch.LegendPosition.RIGHT,
      width: 24,
      height: 8,
    }),
  );
}

function queueWidgets(queues: readonly PortalQueue[]): cloudwatch.IWidget[] {
  return [
    new cloudwatch.GraphWidget({
      title: 'Colas: mensajes en espera',
      left: queues.map(({ def, queue }) =>
        queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum', label: def.id }),
      ),
      right: queues.map(({ def, deadLetterQueue }) =>
        deadLetterQueue.metricApproximateNumberOfMessagesVisible({
          period: FIVE_MINUTES,
          statistic: 'Maximum',
          label: `${def.id} (fallidos)`,
        }),
      ),
      ...WIDE,
    }),
    new cloudwatch.GraphWidget({
      title: 'Colas: antigüedad del mensaje más antiguo (s)',
      left: queues.map(({ def, queue }) =>
        queue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, statistic: 'Maximum', label: def.id }),
      ),
      ...WIDE,
    }),
  ];
}

function externalWidgets(stage: string): cloudwatch.IWidget[] {
  const callsAndFailures = (calls: string, failures: string, callsLabel: string, title: string) =>
    new cloudwatch.GraphWidget({
      title,
      left: [
        productMetric(stage, calls, FIFTEEN_MINUTES).with({ label: callsLabel }),
        productMetric(stage, failures, FIFTEEN_MINUTES).with({ label: 'Fallidas' }),
      ],
      width: 8,
      height: 6,
    });
  return [
    ...EXTERNAL_SYSTEMS.map(({ system, calls, failures }) =>
      callsAndFailures(calls, failures, 'Llamadas', `${system}: llamadas y fallas`),
    ),
    callsAndFailures(METRICS.paymentSyncRuns, METRICS.paymentSyncFailures, 'Ejecuciones', 'Sincronización de pagos'),
  ];
}
