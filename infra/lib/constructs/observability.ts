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
import {
  addDashboardWidgets,
  apiMetrics,
  EXTERNAL_SYSTEMS,
  FIFTEEN_MINUTES,
  FIVE_MINUTES,
  ONE_HOUR,
  productMetric,
  sesMetric,
} from './observability-dashboard.js';
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
    this.topic = this.alarmTopic(props);
    this.queueAlarms(props.queues);
    this.apiAlarms(props.apiStage);
    this.functionAlarms(props.functions);
    this.externalAlarms();
    this.emailAlarms(props.emailConfigurationSet);
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: props.dashboardName,
      defaultInterval: Duration.hours(24),
    });
    addDashboardWidgets(this.dashboard, {
      ...props,
      alarms: this.alarms,
      apiLatencyP99Ms: ALARM_THRESHOLDS.apiLatencyP99Ms,
    });
  }

  /** The encrypted SNS topic the alarms go to, with an e-mail subscription per recipient. */
  private alarmTopic(props: ObservabilityProps): sns.Topic {
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
    const topic = new sns.Topic(this, 'AlarmTopic', {
      displayName: `Portal de Proveedores ${props.stage}: alarmas`,
      masterKey: key,
      enforceSSL: true,
    });
    for (const address of props.alarmEmails) topic.addSubscription(new subscriptions.EmailSubscription(address));
    return topic;
  }

  /** Dead letters and queues that stopped moving. */
  private queueAlarms(queues: readonly PortalQueue[]): void {
    for (const { def, queue, deadLetterQueue } of queues) {
      this.alarm(`${def.id}DeadLetters`, {
        description: `Hay mensajes en la cola de mensajes fallidos de ${def.id}: revíselos y reprocéselos (docs/deploying.md, "Alarms and dashboard").`,
        metric: deadLetterQueue.metricApproximateNumberOfMessagesVisible({
          period: FIVE_MINUTES,
          statistic: 'Maximum',
        }),
        threshold: 1,
      });
      this.alarm(`${def.id}Backlog`, {
        description: `El mensaje más antiguo de la cola ${def.id} espera más de ${ALARM_THRESHOLDS.queueOldestMessageSeconds / 60} minutos.`,
        metric: queue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, statistic: 'Maximum' }),
        threshold: ALARM_THRESHOLDS.queueOldestMessageSeconds,
        evaluationPeriods: 3,
      });
    }
  }

  /** The API as its callers see it. */
  private apiAlarms(apiStage: apigw.HttpStage): void {
    const { requests, serverErrors, latencyP99 } = apiMetrics(apiStage);
    this.alarm('Api5xx', {
      description: `Más del ${ALARM_THRESHOLDS.api5xxPercent} % de las solicitudes a la API respondieron 5xx en cinco minutos.`,
      metric: new cloudwatch.MathExpression({
        expression: `IF(requests >= ${ALARM_THRESHOLDS.minRequests}, 100 * errors / requests, 0)`,
        usingMetrics: { requests, errors: serverErrors },
        label: 'Respuestas 5xx (%)',
        period: FIVE_MINUTES,
      }),
      threshold: ALARM_THRESHOLDS.api5xxPercent,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    });
    this.alarm('ApiLatency', {
      description: `La latencia p99 de la API supera ${ALARM_THRESHOLDS.apiLatencyP99Ms} ms durante quince minutos.`,
      metric: latencyP99,
      threshold: ALARM_THRESHOLDS.apiLatencyP99Ms,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
    });
  }

  /** Every function: crashes, throttles, runs close to their timeout. */
  private functionAlarms(functions: ReadonlyMap<string, PortalFunction>): void {
    for (const [name, fn] of functions) {
      const id = alarmIdOf(name);
      this.alarm(`${id}Errors`, {
        description: `La función ${name} terminó con error (excepción no controlada o tiempo agotado).`,
        metric: fn.function.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
        threshold: 1,
      });
      this.alarm(`${id}Throttles`, {
        description: `La función ${name} fue limitada (throttled): falta concurrencia en la cuenta o la región.`,
        metric: fn.function.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
        threshold: 1,
      });
      const timeout = fn.function.timeout ?? Duration.seconds(3);
      const limit = Math.round(timeout.toMilliseconds() * ALARM_THRESHOLDS.durationOfTimeout);
      this.alarm(`${id}Duration`, {
        description: `La duración p99 de la función ${name} supera el ${ALARM_THRESHOLDS.durationOfTimeout * 100} % de su tiempo máximo (${limit} ms de ${timeout.toMilliseconds()} ms).`,
        metric: fn.function.metricDuration({ period: FIVE_MINUTES, statistic: 'p99' }),
        threshold: limit,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
      });
    }
  }

  /** SUNAT and SAP as the workers see them, and the payment sync. */
  private externalAlarms(): void {
    for (const { id, system, calls, failures } of EXTERNAL_SYSTEMS) {
      this.alarm(id, {
        description: `Más del ${ALARM_THRESHOLDS.externalFailurePercent} % de las llamadas a ${system} fallaron en quince minutos.`,
        metric: this.failureRate(calls, failures, FIFTEEN_MINUTES, `Llamadas fallidas a ${system} (%)`),
        threshold: ALARM_THRESHOLDS.externalFailurePercent,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      });
    }
    // The payment sync runs every fifteen minutes: two failed runs in a row, or half an hour without a run.
    this.alarm('PaymentSyncFailures', {
      description: 'La sincronización de pagos con SAP falló dos veces seguidas.',
      metric: this.productMetric(METRICS.paymentSyncFailures, FIFTEEN_MINUTES),
      threshold: 1,
      evaluationPeriods: 2,
    });
    this.alarm('PaymentSyncStopped', {
      description: 'La sincronización de pagos con SAP no se ejecutó en la última media hora.',
      metric: this.productMetric(METRICS.paymentSyncRuns, FIFTEEN_MINUTES),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      evaluationPeriods: 2,
      treatMissingData: cloudwatch.TreatMissingData.BREACHING,
    });
  }

  /** E-mail reputation (SES pauses accounts whose bounces or complaints stay high). */
  private emailAlarms(configurationSet: string): void {
    const sends = sesMetric(configurationSet, 'Send');
    for (const [id, metricName, percent, label] of [
      ['EmailBounces', 'Bounce', ALARM_THRESHOLDS.bouncePercent, 'rebotes'],
      ['EmailComplaints', 'Complaint', ALARM_THRESHOLDS.complaintPercent, 'quejas'],
    ] as const) {
      this.alarm(id, {
        description: `Los ${label} del correo del portal superan el ${percent} % de los envíos de una hora.`,
        metric: new cloudwatch.MathExpression({
          expression: `IF(sends >= ${ALARM_THRESHOLDS.minSends}, 100 * events / sends, 0)`,
          usingMetrics: { sends, events: sesMetric(configurationSet, metricName) },
          label: `${label} (%)`,
          period: ONE_HOUR,
        }),
        threshold: percent,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      });
    }
  }

  /** A product metric (Powertools, namespace PortalProveedores) of this stage. */
  private productMetric(metricName: string, period: Duration): cloudwatch.Metric {
    return productMetric(this.stage, metricName, period);
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
