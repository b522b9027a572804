import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wholeStack } from './whole-stack.js';
import { METRICS, RUNTIME_ENV } from '@portal/shared';
import { buildPortalApp, type PortalApp } from '../../infra/lib/app.js';
import { ALARM_THRESHOLDS } from '../../infra/lib/constructs/observability.js';
import { PORTAL_FUNCTION_TAG } from '../../infra/lib/constructs/portal-function.js';
import { COLLECTOR_CONFIG_VARIABLE, READ_TRACE_SAMPLE_RATIO } from '../../infra/lib/telemetry.js';

/**
 * Alarms and dashboard of the production stage (a nested stack of the stateless stack): every dead-letter queue,
 * every function and the API are watched, SUNAT and SAP failure rates read the metrics the workers emit, and every
 * alarm reaches the encrypted topic the operators subscribe to.
 */

type Resource = { Type: string; Properties?: Record<string, any> };
type Resources = Record<string, Resource>;
type Metric = { Namespace: string; MetricName: string; Dimensions?: { Name: string; Value: unknown }[] };

const ALARM_EMAILS = ['operaciones@grupo.pe', 'guardia@grupo.pe'];

let outdir: string;
let portal: PortalApp;
let stateful: Template;
let stateless: Template;
let alarms: [string, Resource][];

function ofType(template: Template, type: string): [string, Resource][] {
  return Object.entries(template.toJSON().Resources as Resources).filter(([, r]) => r.Type === type);
}

/**
 * The logical id (and stack) of the resource a value of the stateless stack (its nested stacks merged, wholeStack)
 * points at: one of its own, or an output of the stateful stack.
 */
function resolve(value: unknown): { stack: 'stateful' | 'stateless'; id: string } | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as { Ref?: string; 'Fn::GetAtt'?: string[]; 'Fn::GetStackOutput'?: { OutputName: string } };
  const fromStateful = v['Fn::GetStackOutput'];
  if (fromStateful) {
    const outputs = stateful.toJSON().Outputs as Record<string, { Value: any }>;
    const output = outputs[fromStateful.OutputName]?.Value;
    const target = output?.Ref ?? output?.['Fn::GetAtt']?.[0];
    return target ? { stack: 'stateful', id: target } : undefined;
  }
  const local = v.Ref ?? v['Fn::GetAtt']?.[0];
  return local ? { stack: 'stateless', id: local } : undefined;
}

/** The plain metrics an alarm reads (its own, or those of its metric-math expression). */
function metricsOf(alarm: Resource): Metric[] {
  const p = alarm.Properties!;
  if (p.MetricName) return [{ Namespace: p.Namespace, MetricName: p.MetricName, Dimensions: p.Dimensions }];
  return (p.Metrics as { MetricStat?: { Metric: Metric } }[]).flatMap((m) =>
    m.MetricStat ? [m.MetricStat.Metric] : [],
  );
}

function dimension(metric: Metric, name: string): unknown {
  return metric.Dimensions?.find((d) => d.Name === name)?.Value;
}

/** Alarms reading `metricName` whose dimension `name` resolves to the resource `id`. */
function alarmsOn(metricName: string, name: string, id: string): [string, Resource][] {
  return alarms.filter(([, alarm]) =>
    metricsOf(alarm).some((m) => m.MetricName === metricName && resolve(dimension(m, name))?.id === id),
  );
}

beforeAll(() => {
  outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-cdk-observability-'));
  portal = buildPortalApp({
    context: { stage: 'prod', alarmEmails: JSON.stringify(ALARM_EMAILS), 'aws:cdk:bundling-stacks': [] },
    outdir,
  });
  portal.app.synth();
  stateful = Template.fromStack(portal.stateful);
  stateless = wholeStack(portal.stateless);
  alarms = ofType(stateless, 'AWS::CloudWatch::Alarm');
});

afterAll(() => {
  if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
});

describe('tracing', () => {
  const functions = () =>
    ofType(stateless, 'AWS::Lambda::Function').filter(([, fn]) =>
      (fn.Properties!.Tags as { Key: string }[] | undefined)?.some((tag) => tag.Key === PORTAL_FUNCTION_TAG),
    );

  it("runs the ADOT collector beside every function, on localhost only, writing the function's spans to X-Ray", () => {
    expect(functions().length).toBeGreaterThan(40);
    for (const [id, fn] of functions()) {
      const p = fn.Properties!;
      // The function's sampler decides what is recorded (docs/adr/0041-trace-sampling.md), not Lambda's.
      expect(p.TracingConfig, id).toEqual({ Mode: 'PassThrough' });
      // The collector-only layer for Graviton, pinned to one version, in the stage's region.
      expect(p.Layers, id).toEqual([
        expect.stringMatching(/^arn:aws:lambda:sa-east-1:901920570463:layer:aws-otel-collector-arm64-ver-0-115-0:\d+$/),
      ]);
      const env = p.Environment.Variables as Record<string, string>;
      expect(env.OTEL_EXPORTER_OTLP_ENDPOINT, id).toBe('http://localhost:4318');
      expect(env.OTEL_EXPORTER_OTLP_PROTOCOL, id).toBe('http/json');
      expect(env.OPENTELEMETRY_COLLECTOR_CONFIG_URI, id).toBe(`env:${COLLECTOR_CONFIG_VARIABLE}`);
      const config = env[COLLECTOR_CONFIG_VARIABLE]!;
      expect(config, id).toMatch(/receivers:\n {2}otlp:\n {4}protocols:\n {6}http:\n {8}endpoint: 'localhost:4318'\n/);
      expect(config, id).not.toMatch(/grpc|0\.0\.0\.0/);
      expect(config, id).toMatch(/traces:\n {6}receivers: \[otlp\]\n {6}exporters: \[awsxray\]/);
      expect(config, id).toContain('indexed_attributes: [portal.tx_id]');
      // Lambda refuses a function whose variables exceed 4 KB together.
      const size = Object.entries(env).reduce((total, [name, value]) => total + name.length + String(value).length, 0);
      expect(size, id).toBeLessThan(4096);
    }
  });

  it("traces one in twenty of the API's reads and every write, worker and job", () => {
    const ratios = new Map<string, string | undefined>();
    for (const [id, fn] of functions()) {
      const env = fn.Properties!.Environment.Variables as Record<string, string>;
      ratios.set(String(fn.Properties!.Description ?? id), env[RUNTIME_ENV.traceSampleRatio]);
    }
    const reads = [...ratios].filter(([description]) => /^GET \//.test(description));
    expect(reads.length).toBeGreaterThan(15);
    for (const [description, ratio] of reads) expect(ratio, description).toBe(String(READ_TRACE_SAMPLE_RATIO));
    expect(READ_TRACE_SAMPLE_RATIO).toBe(0.05);
    const writes = [...ratios].filter(([description]) => /^(POST|PUT|PATCH|DELETE) \//.test(description));
    expect(writes.length).toBeGreaterThan(15);
    for (const [description, ratio] of writes) expect(ratio, description).toBeUndefined();
    const others = [...ratios].filter(([description]) => !/^(GET|POST|PUT|PATCH|DELETE|ANY) /.test(description));
    expect(others.length).toBeGreaterThan(5);
    for (const [description, ratio] of others) expect(ratio, description).toBeUndefined();
  });

  it('lets every function role write segments to X-Ray, and nothing else of X-Ray', () => {
    const policies = ofType(stateless, 'AWS::IAM::Policy');
    for (const [id, fn] of functions()) {
      const roleId = (fn.Properties!.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
      const xrayActions = policies
        .filter(([, policy]) => (policy.Properties!.Roles as { Ref: string }[]).some((role) => role.Ref === roleId))
        .flatMap(([, policy]) => policy.Properties!.PolicyDocument.Statement as { Action: string | string[] }[])
        .flatMap((statement) => [statement.Action].flat())
        .filter((action) => action.startsWith('xray:'));
      expect(xrayActions.sort(), id).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
    }
  });
});

describe('alarm topic', () => {
  it('is encrypted with a rotating customer key CloudWatch may use, refuses plain HTTP, and mails the operators', () => {
    const [[topicId, topic]] = ofType(stateless, 'AWS::SNS::Topic') as [[string, Resource]];
    const keyId = resolve(topic.Properties!.KmsMasterKeyId)?.id;
    const key = stateless.toJSON().Resources[keyId!] as Resource;
    expect(key.Type).toBe('AWS::KMS::Key');
    expect(key.Properties!.EnableKeyRotation).toBe(true);
    const cloudwatchGrant = (key.Properties!.KeyPolicy.Statement as Record<string, any>[]).find(
      (s) => s.Principal?.Service === 'cloudwatch.amazonaws.com',
    );
    expect(cloudwatchGrant?.Action).toEqual(expect.arrayContaining(['kms:Decrypt', 'kms:GenerateDataKey*']));

    const [[, topicPolicy]] = ofType(stateless, 'AWS::SNS::TopicPolicy') as [[string, Resource]];
    expect(topicPolicy.Properties!.Topics).toEqual([{ Ref: topicId }]);
    const denies = (topicPolicy.Properties!.PolicyDocument.Statement as Record<string, any>[]).some(
      (s) => s.Effect === 'Deny' && s.Condition?.Bool?.['aws:SecureTransport'] === 'false',
    );
    expect(denies).toBe(true);

    const subscriptions = ofType(stateless, 'AWS::SNS::Subscription').map(([, s]) => s.Properties!);
    expect(subscriptions.map((s) => s.Endpoint).sort()).toEqual([...ALARM_EMAILS].sort());
    for (const s of subscriptions) {
      expect(s.Protocol).toBe('email');
      expect(s.TopicArn).toEqual({ Ref: topicId });
    }
  });

  it('receives every alarm, and its return to normal', () => {
    const [[topicId]] = ofType(stateless, 'AWS::SNS::Topic') as [[string, Resource]];
    expect(alarms.length).toBeGreaterThan(100);
    for (const [id, alarm] of alarms) {
      expect(alarm.Properties!.AlarmActions, id).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties!.OKActions, id).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties!.AlarmDescription, id).toMatch(/[a-záéíóúñ]/);
    }
  });
});

describe('alarms', () => {
  it('fire on the first message in any dead-letter queue, and on a queue whose oldest message waits too long', () => {
    const queues = ofType(stateful, 'AWS::SQS::Queue');
    const deadLetterIds = new Set(
      queues.flatMap(([, q]) => {
        const target = q.Properties?.RedrivePolicy?.deadLetterTargetArn?.['Fn::GetAtt']?.[0] as string | undefined;
        return target ? [target] : [];
      }),
    );
    expect(deadLetterIds.size).toBeGreaterThan(0);
    for (const [id] of queues) {
      if (deadLetterIds.has(id)) {
        const [[, alarm]] = alarmsOn('ApproximateNumberOfMessagesVisible', 'QueueName', id) as [[string, Resource]];
        expect(alarm.Properties).toMatchObject({
          Threshold: 1,
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
          EvaluationPeriods: 1,
          Statistic: 'Maximum',
        });
      } else {
        const [[, alarm]] = alarmsOn('ApproximateAgeOfOldestMessage', 'QueueName', id) as [[string, Resource]];
        expect(alarm.Properties!.Threshold).toBe(ALARM_THRESHOLDS.queueOldestMessageSeconds);
      }
    }
  });

  it("watch every function's errors, throttles and p99 duration against 80 % of its own timeout", () => {
    const functions = [
      ...ofType(stateless, 'AWS::Lambda::Function'),
      ...ofType(stateful, 'AWS::Lambda::Function'),
    ].filter(([, fn]) =>
      (fn.Properties?.Tags as { Key: string }[] | undefined)?.some((t) => t.Key === PORTAL_FUNCTION_TAG),
    );
    expect(functions.length).toBeGreaterThan(40);
    for (const [id, fn] of functions) {
      for (const metricName of ['Errors', 'Throttles']) {
        const found = alarmsOn(metricName, 'FunctionName', id);
        expect(found, `${metricName} of ${id}`).toHaveLength(1);
        expect(found[0]![1].Properties).toMatchObject({ Threshold: 1, Statistic: 'Sum' });
      }
      const [[, duration]] = alarmsOn('Duration', 'FunctionName', id) as [[string, Resource]];
      const timeoutMs = (fn.Properties!.Timeout as number) * 1000;
      expect(duration.Properties).toMatchObject({ ExtendedStatistic: 'p99', Threshold: Math.round(timeoutMs * 0.8) });
    }
  });

  it('watch the 5xx rate and the p99 latency of the API stage the site calls', () => {
    const [[apiId]] = ofType(stateless, 'AWS::ApiGatewayV2::Api') as [[string, Resource]];
    const [[, stage]] = ofType(stateless, 'AWS::ApiGatewayV2::Stage') as [[string, Resource]];
    const onApi = (metricName: string) =>
      alarms.filter(([, alarm]) =>
        metricsOf(alarm).some(
          (m) =>
            m.MetricName === metricName &&
            m.Namespace === 'AWS/ApiGateway' &&
            resolve(dimension(m, 'ApiId'))?.id === apiId &&
            dimension(m, 'Stage') === stage.Properties!.StageName,
        ),
      );
    const [[, serverErrors]] = onApi('5xx') as [[string, Resource]];
    const expression = (serverErrors.Properties!.Metrics as { Expression?: string }[]).find((m) => m.Expression);
    expect(expression?.Expression).toMatch(/errors \/ requests/);
    expect(
      metricsOf(serverErrors)
        .map((m) => m.MetricName)
        .sort(),
    ).toEqual(['5xx', 'Count']);
    expect(serverErrors.Properties!.Threshold).toBe(ALARM_THRESHOLDS.api5xxPercent);
    const [[, latency]] = onApi('Latency') as [[string, Resource]];
    expect(latency.Properties).toMatchObject({ ExtendedStatistic: 'p99', Threshold: ALARM_THRESHOLDS.apiLatencyP99Ms });
  });

  it('compute the SUNAT and SAP failure rates from the metrics the workers emit for this stage', () => {
    for (const [calls, failures] of [
      [METRICS.sunatCalls, METRICS.sunatFailures],
      [METRICS.sapCalls, METRICS.sapFailures],
    ]) {
      const found = alarms.filter(([, alarm]) => metricsOf(alarm).some((m) => m.MetricName === failures));
      expect(found, failures).toHaveLength(1);
      const [, alarm] = found[0]!;
      const metrics = metricsOf(alarm);
      expect(metrics.map((m) => m.MetricName).sort()).toEqual([calls, failures].sort());
      for (const m of metrics) {
        expect(m.Namespace).toBe(METRICS.namespace);
        expect(Object.fromEntries(m.Dimensions!.map((d) => [d.Name, d.Value]))).toEqual({
          service: METRICS.serviceName,
          [METRICS.stageDimension]: 'prod',
        });
      }
      expect(alarm.Properties!.Threshold).toBe(ALARM_THRESHOLDS.externalFailurePercent);
      expect(alarm.Properties!.ComparisonOperator).toBe('GreaterThanThreshold');
    }
  });

  it('notice a failing payment sync and one that stopped running', () => {
    const byMetric = (name: string) =>
      alarms.filter(([, alarm]) => metricsOf(alarm).some((m) => m.MetricName === name)).map(([, a]) => a.Properties!);
    const [failures] = byMetric(METRICS.paymentSyncFailures);
    expect(failures).toMatchObject({ Threshold: 1, EvaluationPeriods: 2, TreatMissingData: 'notBreaching' });
    const [stopped] = byMetric(METRICS.paymentSyncRuns);
    expect(stopped).toMatchObject({
      ComparisonOperator: 'LessThanThreshold',
      Threshold: 1,
      TreatMissingData: 'breaching',
    });
  });
});

describe('dashboard', () => {
  it('is named for the stage and shows every alarm, the API, the queues, SUNAT, SAP and e-mail', () => {
    const [[, dashboard]] = ofType(stateless, 'AWS::CloudWatch::Dashboard') as [[string, Resource]];
    expect(dashboard.Properties!.DashboardName).toBe('Portal-prod');
    const body = JSON.stringify(dashboard.Properties!.DashboardBody);
    for (const [id] of alarms) expect(body, id).toContain(`"${id}"`);
    for (const name of [
      '5xx',
      'Latency',
      'ApproximateNumberOfMessagesVisible',
      'ApproximateAgeOfOldestMessage',
      METRICS.sunatFailures,
      METRICS.sapFailures,
      METRICS.paymentSyncRuns,
      'Bounce',
    ]) {
      expect(body).toContain(`\\"${name}\\"`);
    }
  });
});
