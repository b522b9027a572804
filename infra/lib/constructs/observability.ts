import { Duration, NestedStack, RemovalPolicy, type NestedStackProps } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { METRICS } from '@portal/shared';
import type { PortalFunction } from './portal-function.js';
import type { PortalQueue } from './queues.js';

/**
 * When an alarm fires. Figures chosen for a portal used in office hours by a few hundred people: one message in a
 * dead-letter queue or one crashed invocation already deserves a look; rates need enough calls to mean something.
 */
export const ALARM_THRESHOLDS = {
  /** API 5xx responses, in percent of the requests of five minutes (with at least `minRequests` requests). */
  api5xxPercent: 5,
  minRequests: 20,
  /** API latency p99, milliseconds, over three consecutive five-minute periods. */
  apiLatencyP99Ms: 3_000,
  /** A function's p99 duration, as a fraction of its timeout. */
  durationOfTimeout: 0.8,
  /** A queue's oldest message, seconds: the worker is not keeping up or keeps failing it. */
  queueOldestMessageSeconds: 30 * 60,
  /** SUNAT and SAP failed calls, percent of the calls of fifteen minutes (with at least `minCalls` calls). */
  externalFailurePercent: 20,
  minCalls: 5,
  /** SES bounces and complaints, percent of the sends of one hour (with at least `minSends` sends). */
  bouncePercent: 5,
  complaintPercent: 0.1,
  minSends: 20,
} as const;

export interface ObservabilityProps extends NestedStackProps {
  readonly stage: string;
  readonly retain: boolean;
  /** Who receives the alarms (e-mail subscriptions, each confirmed by its recipient). */
  readonly alarmEmails: readonly string[];
  /** The operators' dashboard name (stageNames(stage).dashboard). */
  readonly dashboardName: string;
  readonly httpApi: apigw.HttpApi;
  readonly apiStage: apigw.HttpStage;
  /** Every function of the stage by a short name: the API's, the workers', the jobs', the Cognito trigger. */
  readonly functions: ReadonlyMap<string, PortalFunction>;
  readonly queues: readonly PortalQueue[];
  /** SES configuration set of the portal's e-mail (its events are counted under this dimension). */
  readonly emailConfigurationSet: string;
}

/**
 * Alarms on everything that needs a person (dead letters, API 5xx and latency, function errors, throttles and
 * near-timeouts, SUNAT and SAP failure rates, the payment sync, e-mail bounces), sent to an encrypted SNS topic,
 * and one CloudWatch dashboard. A nested stack: a hundred-odd alarms would crowd the stateless stack's
 * 500-resource limit, and a nested stack takes its references as parameters, which never pin the other stacks.
 */
export class Observability extends NestedStack {
  readonly topic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly dashboard: cloudwatch.Dashboard;
  private readonly stage: string;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id, props);
    this.stage = props.stage;

    const key = new kms.Key(this, 'AlarmTopicKey', {
      description: `Portal de Proveedores (${props.stage}): alarm topic`,
      enableKeyRotation: true,
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    // CloudWatch publishes to an encrypted topic only if the key lets it.
    key.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
      }),
    );
    this.topic = new sns.Topic(this, 'AlarmTopic', {
      displayName: `Portal de Proveedores ${props.stage}: alarmas`,
      masterKey: key,
      enforceSSL: true,
    });
    for (const address of props.alarmEmails) this.topic.addSubscription(new subscriptions.EmailSubscription(address));

    const fiveMinutes = Duration.minutes(5);

    // Dead letters and queues that stopped moving.
    for (const { def, queue, deadLetterQueue } of props.queues) {
      this.alarm(`${def.id}DeadLetters`, {
        description: `Hay mensajes en la cola de mensajes fallidos de ${def.id}: revíselos y reprocéselos (docs/deploying.md, "Alarms and dashboard").`,
        metric: deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: fiveMinutes, statistic: 'Maximum' }),
        threshold: 1,
      });
      this.alarm(`${def.id}Backlog`, {
        description: `El mensaje más antiguo de la cola ${def.id} espera más de ${ALARM_THRESHOLDS.queueOldestMessageSeconds / 60} minutos.`,
        metric: queue.metricApproximateAgeOfOldestMessage({ period: fiveMinutes, statistic: 'Maximum' }),
        threshold: ALARM_THRESHOLDS.queueOldestMessageSeconds,
        evaluationPeriods: 3,
      });
    }

    // The API as its callers see it.
    const requests = props.apiStage.metricCount({ period: fiveMinutes, statistic: 'Sum' });
    const serverErrors = props.apiStage.metricServerError({ period: fiveMinutes, statistic: 'Sum' });
    this.alarm('Api5xx', {
      description: `Más del ${ALARM_THRESHOLDS.api5xxPercent} % de las solicitudes a la API respondieron 5xx en cinco minutos.`,
      metric: new cloudwatch.MathExpression({
        expression: `IF(requests >= ${ALARM_THRESHOLDS.minRequests}, 100 * errors / requests, 0)`,
        usingMetrics: { requests, errors: serverErrors },
        label: 'Respuestas 5xx (%)',
        period: fiveMinutes,
      }),
      threshold: ALARM_THRESHOLDS.api5xxPercent,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    });
    const latencyP99 = props.apiStage.metricLatency({ period: fiveMinutes, statistic: 'p99' });
    this.alarm('ApiLatency', {
      description: `La latencia p99 de la API supera ${ALARM_THRESHOLDS.apiLatencyP99Ms} ms durante quince minutos.`,
      metric: latencyP99,
      threshold: ALARM_THRESHOLDS.apiLatencyP99Ms,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
    });

    // Every function: crashes, throttles, runs close to their timeout.
    for (const [name, fn] of props.functions) {
      const id = alarmIdOf(name);
      this.alarm(`${id}Errors`, {
        description: `La función ${name} terminó con error (excepción no controlada o tiempo agotado).`,
        metric: fn.function.metricErrors({ period: fiveMinutes, statistic: 'Sum' }),
        threshold: 1,
      });
      this.alarm(`${id}Throttles`, {
        description: `La función ${name} fue limitada (throttled): falta concurrencia en la cuenta o la región.`,
        metric: fn.function.metricThrottles({ period: fiveMinutes, statistic: 'Sum' }),
        threshold: 1,
      });
      const timeout = fn.function.timeout ?? Duration.seconds(3);
      const limit = Math.round(timeout.toMilliseconds() * ALARM_THRESHOLDS.durationOfTimeout);
      this.alarm(`${id}Duration`, {
        description: `La duración p99 de la función ${name} supera el ${ALARM_THRESHOLDS.durationOfTimeout * 100} % de su tiempo máximo (${limit} ms de ${timeout.toMilliseconds()} ms).`,
        metric: fn.function.metricDuration({ period: fiveMinutes, statistic: 'p99' }),
        threshold: limit,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
      });
    }

    // SUNAT and SAP as the workers see them.
    const fifteenMinutes = Duration.minutes(15);
    const external = [
      { id: 'SunatFailureRate', system: 'SUNAT', calls: METRICS.sunatCalls, failures: METRICS.sunatFailures },
      { id: 'SapFailureRate', system: 'SAP', calls: METRICS.sapCalls, failures: METRICS.sapFailures },
    ] as const;
    for (const { id, system, calls, failures } of external) {
      this.alarm(id, {
        description: `Más del ${ALARM_THRESHOLDS.externalFailurePercent} % de las llamadas a ${system} fallaron en quince minutos.`,
        metric: this.failureRate(calls, failures, fifteenMinutes, `Llamadas fallidas a ${system} (%)`),
        threshold: ALARM_THRESHOLDS.externalFailurePercent,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      });
    }
    // The payment sync runs every fifteen minutes: two failed runs in a row, or half an hour without a run.
    this.alarm('PaymentSyncFailures', {
      description: 'La sincronización de pagos con SAP falló dos veces seguidas.',
      metric: this.productMetric(METRICS.paymentSyncFailures, fifteenMinutes),
      threshold: 1,
      evaluationPeriods: 2,
    });
    this.alarm('PaymentSyncStopped', {
      description: 'La sincronización de pagos con SAP no se ejecutó en la última media hora.',
      metric: this.productMetric(METRICS.paymentSyncRuns, fifteenMinutes),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      evaluationPeriods: 2,
      treatMissingData: cloudwatch.TreatMissingData.BREACHING,
    });

    // E-mail reputation (SES pauses accounts whose bounces or complaints stay high).
    const oneHour = Duration.hours(1);
    const sesMetric = (metricName: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/SES',
        metricName,
        dimensionsMap: { ConfigurationSet: props.emailConfigurationSet },
        statistic: 'Sum',
        period: oneHour,
      });
    const sends = sesMetric('Send');
    for (const [id, metricName, percent, label] of [
      ['EmailBounces', 'Bounce', ALARM_THRESHOLDS.bouncePercent, 'rebotes'],
      ['EmailComplaints', 'Complaint', ALARM_THRESHOLDS.complaintPercent, 'quejas'],
    ] as const) {
      this.alarm(id, {
        description: `Los ${label} del correo del portal superan el ${percent} % de los envíos de una hora.`,
        metric: new cloudwatch.MathExpression({
          expression: `IF(sends >= ${ALARM_THRESHOLDS.minSends}, 100 * events / sends, 0)`,
          usingMetrics: { sends, events: sesMetric(metricName) },
          label: `${label} (%)`,
          period: oneHour,
        }),
        threshold: percent,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      });
    }

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: props.dashboardName,
      defaultInterval: Duration.hours(24),
    });
    const functions = [...props.functions.entries()];
    const byFunction = (metric: (fn: PortalFunction) => cloudwatch.IMetric) =>
      functions.map(([name, fn]) => (metric(fn) as cloudwatch.Metric).with({ label: name }));
    const wide = { width: 12, height: 6 } as const;
    this.dashboard.addWidgets(
      new cloudwatch.TextWidget({
        markdown: `# Portal de Proveedores (${props.stage})\nAPI, funciones, colas, SUNAT, SAP y correo. Las alarmas se envían al tema SNS de la etapa.`,
        width: 24,
        height: 2,
      }),
    );
    // An alarm status widget shows at most 100 alarms.
    for (let start = 0; start < this.alarms.length; start += 100) {
      this.dashboard.addWidgets(
        new cloudwatch.AlarmStatusWidget({
          title: start === 0 ? 'Alarmas' : 'Alarmas (continuación)',
          alarms: this.alarms.slice(start, start + 100),
          width: 24,
          height: 6,
        }),
      );
    }
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'API: solicitudes y errores',
        left: [
          requests.with({ label: 'Solicitudes' }),
          props.apiStage.metricClientError({ period: fiveMinutes, statistic: 'Sum', label: '4xx' }),
          serverErrors.with({ label: '5xx' }),
        ],
        ...wide,
      }),
      new cloudwatch.GraphWidget({
        title: 'API: latencia (ms)',
        left: [
          props.apiStage.metricLatency({ period: fiveMinutes, statistic: 'p50', label: 'p50' }),
          latencyP99.with({ label: 'p99' }),
        ],
        leftAnnotations: [{ value: ALARM_THRESHOLDS.apiLatencyP99Ms, label: 'Alarma p99' }],
        ...wide,
      }),
    );
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'Funciones: errores',
        left: byFunction((fn) => fn.function.metricErrors({ period: fiveMinutes, statistic: 'Sum' })),
        legendPosition: cloudwatch.LegendPosition.RIGHT,
        ...wide,
      }),
      new cloudwatch.GraphWidget({
        title: 'Funciones: limitadas (throttles)',
        left: byFunction((fn) => fn.function.metricThrottles({ period: fiveMinutes, statistic: 'Sum' })),
        legendPosition: cloudwatch.LegendPosition.RIGHT,
        ...wide,
      }),
    );
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'Funciones: duración p99 (ms)',
        left: byFunction((fn) => fn.function.metricDuration({ period: fiveMinutes, statistic: 'p99' })),
        legendPosition: cloudwatch.LegendPosition.RIGHT,
        width: 24,
        height: 8,
      }),
    );
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'Colas: mensajes en espera',
        left: props.queues.map(({ def, queue }) =>
          queue.metricApproximateNumberOfMessagesVisible({ period: fiveMinutes, statistic: 'Maximum', label: def.id }),
        ),
        right: props.queues.map(({ def, deadLetterQueue }) =>
          deadLetterQueue.metricApproximateNumberOfMessagesVisible({
            period: fiveMinutes,
            statistic: 'Maximum',
            label: `${def.id} (fallidos)`,
          }),
        ),
        ...wide,
      }),
      new cloudwatch.GraphWidget({
        title: 'Colas: antigüedad del mensaje más antiguo (s)',
        left: props.queues.map(({ def, queue }) =>
          queue.metricApproximateAgeOfOldestMessage({ period: fiveMinutes, statistic: 'Maximum', label: def.id }),
        ),
        ...wide,
      }),
    );
    this.dashboard.addWidgets(
      ...external.map(
        ({ system, calls, failures }) =>
          new cloudwatch.GraphWidget({
            title: `${system}: llamadas y fallas`,
            left: [
              this.productMetric(calls, fifteenMinutes).with({ label: 'Llamadas' }),
              this.productMetric(failures, fifteenMinutes).with({ label: 'Fallidas' }),
            ],
            width: 8,
            height: 6,
          }),
      ),
      new cloudwatch.GraphWidget({
        title: 'Sincronización de pagos',
        left: [
          this.productMetric(METRICS.paymentSyncRuns, fifteenMinutes).with({ label: 'Ejecuciones' }),
          this.productMetric(METRICS.paymentSyncFailures, fifteenMinutes).with({ label: 'Fallidas' }),
        ],
        width: 8,
        height: 6,
      }),
    );
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'Correo (SES)',
        left: ['Send', 'Delivery', 'Bounce', 'Complaint', 'Reject'].map((name) =>
          sesMetric(name).with({ label: name }),
        ),
        width: 24,
        height: 6,
      }),
    );
  }

  /** A product metric (Powertools, namespace PortalProveedores) of this stage. */
  private productMetric(metricName: string, period: Duration): cloudwatch.Metric {
    return new cloudwatch.Metric({
      namespace: METRICS.namespace,
      metricName,
      dimensionsMap: { service: METRICS.serviceName, [METRICS.stageDimension]: this.stage },
      statistic: 'Sum',
      period,
    });
  }

  /** Failed calls in percent of the calls, zero while there are too few calls to tell. */
  private failureRate(calls: string, failures: string, period: Duration, label: string): cloudwatch.MathExpression {
    return new cloudwatch.MathExpression({
      expression: `IF(calls >= ${ALARM_THRESHOLDS.minCalls}, 100 * failures / calls, 0)`,
      usingMetrics: { calls: this.productMetric(calls, period), failures: this.productMetric(failures, period) },
      label,
      period,
    });
  }

  /** An alarm to the topic (and its return to OK); missing data is "nothing happened" unless told otherwise. */
  private alarm(
    id: string,
    props: Pick<cloudwatch.AlarmProps, 'metric' | 'threshold'> & { readonly description: string } & Partial<
        Pick<
          cloudwatch.AlarmProps,
          'comparisonOperator' | 'evaluationPeriods' | 'datapointsToAlarm' | 'treatMissingData'
        >
      >,
  ): cloudwatch.Alarm {
    const alarm = new cloudwatch.Alarm(this, id, {
      metric: props.metric,
      threshold: props.threshold,
      alarmDescription: props.description,
      comparisonOperator: props.comparisonOperator ?? cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: props.evaluationPeriods ?? 1,
      datapointsToAlarm: props.datapointsToAlarm,
      treatMissingData: props.treatMissingData ?? cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    const action = new actions.SnsAction(this.topic);
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
    this.alarms.push(alarm);
    return alarm;
  }
}

/** `list-invoices` → `ListInvoices`, `sunatValidation` → `SunatValidation`: a construct id per function. */
function alarmIdOf(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}
