import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { METRICS, RUNTIME_ENV, SCHEDULES } from '@portal/shared';
import { buildPortalApp } from '../../infra/lib/app.js';
import { PORTAL_FUNCTION_TAG } from '../../infra/lib/constructs/portal-function.js';
import type { Inventory } from './cost-model.js';

/**
 * What a deployed stage is made of, read from its CloudFormation templates as `cdk synth` writes them (the functions
 * not bundled: their code does not change what is billed): each function's memory and architecture, and what costs
 * by the month (alarms, dashboards, keys, secrets, the web ACL's rules, the user pool's plan).
 */

interface Resource {
  readonly Type: string;
  readonly Properties?: Record<string, unknown>;
}

export interface StageInfrastructure {
  readonly stage: string;
  readonly region: string;
  /** Memory (MB) of each product function, by the name PortalFunction tags it with (route id, `<queue>Worker` …). */
  readonly memoryMb: Readonly<Record<string, number>>;
  /** The share of its invocations each function begins a recorded trace with (1 unless its environment says less). */
  readonly traceSampleRatio: Readonly<Record<string, number>>;
  /** Whether the web ACL logs the requests it lets through, or only those a rule acted on (its logging filter). */
  readonly wafLogsAllowedRequests: boolean;
  readonly architectures: readonly string[];
  readonly inventory: Inventory;
}

export function synthesizeStage(stage: string): StageInfrastructure {
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'portal-cost-'));
  try {
    const portal = buildPortalApp({
      context: { stage, 'aws:cdk:bundling-stacks': [] },
      outdir,
      nag: false,
    });
    portal.app.synth();
    const resources: Resource[] = [];
    for (const file of readdirSync(outdir).filter((name) => name.endsWith('.template.json'))) {
      const template = JSON.parse(readFileSync(path.join(outdir, file), 'utf8')) as {
        Resources?: Record<string, Resource>;
      };
      resources.push(...Object.values(template.Resources ?? {}));
    }
    const of = (type: string) => resources.filter((resource) => resource.Type === type);

    const memoryMb: Record<string, number> = {};
    const traceSampleRatio: Record<string, number> = {};
    const architectures = new Set<string>();
    for (const fn of of('AWS::Lambda::Function')) {
      const props = fn.Properties ?? {};
      const tags = (props.Tags ?? []) as { Key: string; Value: string }[];
      const name = tags.find((tag) => tag.Key === PORTAL_FUNCTION_TAG)?.Value;
      if (!name) continue;
      memoryMb[name] = Number(props.MemorySize ?? 128);
      const variables = (props.Environment as { Variables?: Record<string, string> } | undefined)?.Variables ?? {};
      const ratio = variables[RUNTIME_ENV.traceSampleRatio];
      traceSampleRatio[name] = ratio === undefined ? 1 : Number(ratio);
      for (const architecture of (props.Architectures as string[] | undefined) ?? ['x86_64'])
        architectures.add(architecture);
    }

    const alarms = of('AWS::CloudWatch::Alarm');
    const alarmMetrics = alarms.reduce((sum, alarm) => {
      const metrics = alarm.Properties?.Metrics as { MetricStat?: unknown }[] | undefined;
      return sum + (metrics ? metrics.filter((metric) => metric.MetricStat).length : 1);
    }, 0);
    const webAcls = of('AWS::WAFv2::WebACL');
    const rules = webAcls.flatMap(
      (acl) => (acl.Properties?.Rules ?? []) as { Statement?: { ManagedRuleGroupStatement?: { Name?: string } } }[],
    );
    const wafLogging = of('AWS::WAFv2::LoggingConfiguration');
    const wafLogsAllowedRequests = wafLogging.some((logging) => {
      const filter = logging.Properties?.LoggingFilter as { DefaultBehavior?: string; Filters?: unknown[] } | undefined;
      // A filter that drops by default and keeps only matched actions (WAF_LOGGED_ACTIONS) leaves ALLOW out.
      return !filter || filter.DefaultBehavior !== 'DROP' || JSON.stringify(filter.Filters ?? []).includes('"ALLOW"');
    });
    const pools = of('AWS::Cognito::UserPool');
    const addOns = pools[0]?.Properties?.UserPoolAddOns as { AdvancedSecurityMode?: string } | undefined;
    const logGroups = of('AWS::Logs::LogGroup');
    const retention = Math.max(0, ...logGroups.map((group) => Number(group.Properties?.RetentionInDays ?? 0)));
    const metricNames = Object.entries(METRICS).filter(
      ([key]) => !['namespace', 'serviceName', 'stageDimension'].includes(key),
    );

    return {
      stage,
      region: portal.config.region,
      memoryMb,
      traceSampleRatio,
      wafLogsAllowedRequests,
      architectures: [...architectures],
      inventory: {
        functions: Object.keys(memoryMb).length,
        alarms: alarms.length,
        alarmMetrics,
        dashboards: of('AWS::CloudWatch::Dashboard').length,
        kmsKeys: of('AWS::KMS::Key').length,
        secrets: of('AWS::SecretsManager::Secret').length,
        webAcls: webAcls.length,
        wafRules: rules.length,
        botControl: rules.some(
          (rule) => rule.Statement?.ManagedRuleGroupStatement?.Name === 'AWSManagedRulesBotControlRuleSet',
        ),
        queuesWithConsumers: of('AWS::Lambda::EventSourceMapping').length,
        schedules: Object.values(SCHEDULES).map((def) => ({ id: def.id, everyMinutes: def.everyMinutes })),
        // Each product metric has one set of dimensions (service, stage): one custom metric per name.
        customMetrics: metricNames.length,
        threatProtection: addOns?.AdvancedSecurityMode ?? 'OFF',
        logRetentionDays: retention,
      },
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
