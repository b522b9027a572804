import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPortalApp } from '../../infra/lib/app.js';
import { resolveStageConfig } from '../../infra/lib/stage-config.js';

/**
 * Documents and invoice data are kept as long as tax law may ask (Código Tributario art. 87): the stage's
 * retention period, ten years unless configured, never under five, on the documents bucket's versions and
 * the table's backups. cdk-nag runs during each synthesis: a finding throws.
 */

type Resource = { Type: string; Properties?: Record<string, any>; DeletionPolicy?: string };

const TEN_YEARS_IN_DAYS = 3653;
const SEVEN_YEARS_IN_DAYS = 2557;

const outdirs: string[] = [];
function stateful(context: Record<string, unknown>): Record<string, Resource> {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-cdk-retention-'));
  outdirs.push(outdir);
  // Lambda bundling skipped: these assertions read the stateful stack's resources only.
  const portal = buildPortalApp({ context: { ...context, 'aws:cdk:bundling-stacks': [] }, outdir });
  portal.app.synth();
  return Template.fromStack(portal.stateful).toJSON().Resources as Record<string, Resource>;
}

const ofType = (resources: Record<string, Resource>, type: string) =>
  Object.entries(resources).filter(([, resource]) => resource.Type === type);

const documentsBucket = (resources: Record<string, Resource>) => {
  const buckets = ofType(resources, 'AWS::S3::Bucket').filter(([, b]) => b.Properties?.CorsConfiguration);
  expect(buckets).toHaveLength(1);
  return buckets[0]!;
};

let prod: Record<string, Resource>;
let sevenYears: Record<string, Resource>;

beforeAll(() => {
  prod = stateful({ stage: 'prod' });
  sevenYears = stateful({ stage: 'dev', retentionYears: '7' });
});

afterAll(() => {
  for (const outdir of outdirs) fs.rmSync(outdir, { recursive: true, force: true });
});

describe('the retention period of the stage configuration', () => {
  const resolve = (values: Record<string, unknown>) => resolveStageConfig((key) => values[key]);

  it('is ten years unless told, and any whole number of years from five', () => {
    expect(resolve({}).retentionYears).toBe(10);
    expect(resolve({ stage: 'prod' }).retentionYears).toBe(10);
    expect(resolve({ retentionYears: '5' }).retentionYears).toBe(5);
    expect(resolve({ stage: 'prod', retentionYears: 12 }).retentionYears).toBe(12);
  });

  it('refuses less than five years, naming the law, and anything that is not a whole number of years', () => {
    expect(() => resolve({ retentionYears: '4' })).toThrow(
      /retentionYears: at least 5 \(Código Tributario art\. 87: tax records are kept five years/,
    );
    expect(() => resolve({ retentionYears: 0 })).toThrow(/retentionYears: at least 5/);
    expect(() => resolve({ retentionYears: 7.5 })).toThrow(/retentionYears: a whole number of years, 5 or more/);
    expect(() => resolve({ retentionYears: 'diez' })).toThrow(/retentionYears: a whole number of years/);
  });
});

describe('documents bucket', () => {
  it('keeps every current document and every earlier version for the retention period', () => {
    for (const [resources, days] of [
      [prod, TEN_YEARS_IN_DAYS],
      [sevenYears, SEVEN_YEARS_IN_DAYS],
    ] as const) {
      const [, bucket] = documentsBucket(resources);
      expect(bucket.Properties!.VersioningConfiguration).toEqual({ Status: 'Enabled' });
      const all = bucket.Properties!.LifecycleConfiguration.Rules as Record<string, any>[];
      // The exports of the lists (docs/adr/0032-list-exports.md) are copies made on request under exports/, which
      // no document key uses: their own rule expires them after a day, and nothing else.
      const exportsRules = all.filter((rule) => rule.Id === 'ExpireListExports');
      expect(exportsRules).toEqual([expect.objectContaining({ Prefix: 'exports/', ExpirationInDays: 1 })]);
      const rules = all.filter((rule) => rule.Id !== 'ExpireListExports');
      const kept = rules.filter((rule) => rule.NoncurrentVersionExpiration);
      expect(kept).toEqual([
        expect.objectContaining({ Status: 'Enabled', NoncurrentVersionExpiration: { NoncurrentDays: days } }),
      ]);
      // No rule expires or moves away a current document, nor filters the retention to part of the bucket.
      for (const rule of rules) {
        expect(rule.ExpirationInDays ?? rule.ExpirationDate ?? rule.Transitions, rule.Id).toBeUndefined();
      }
      expect(kept[0]!.Prefix ?? kept[0]!.TagFilters).toBeUndefined();
    }
  });

  it('lets no one remove a version before its time, and stays in place when the stack goes (prod)', () => {
    const [id, bucket] = documentsBucket(prod);
    const policies = ofType(prod, 'AWS::S3::BucketPolicy').filter(([, p]) => p.Properties?.Bucket?.Ref === id);
    const statements = policies.flatMap(([, p]) => p.Properties!.PolicyDocument.Statement as Record<string, any>[]);
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Principal: { AWS: '*' }, Action: 's3:DeleteObjectVersion' }),
    );
    expect(bucket.DeletionPolicy).toBe('Retain');
  });
});

describe('table', () => {
  it('recovers to any second of the last 35 days', () => {
    const [[, table]] = ofType(prod, 'AWS::DynamoDB::Table') as [[string, Resource]];
    expect(table.Properties!.PointInTimeRecoverySpecification).toEqual({
      PointInTimeRecoveryEnabled: true,
      RecoveryPeriodInDays: 35,
    });
  });

  it('is backed up daily (kept 35 days) and monthly (kept the retention period) into a vault kept in prod', () => {
    for (const [resources, days] of [
      [prod, TEN_YEARS_IN_DAYS],
      [sevenYears, SEVEN_YEARS_IN_DAYS],
    ] as const) {
      const plans = ofType(resources, 'AWS::Backup::BackupPlan');
      expect(plans).toHaveLength(1);
      const rules = plans[0]![1].Properties!.BackupPlan.BackupPlanRule as Record<string, any>[];
      expect(rules.map((rule) => [rule.RuleName, rule.ScheduleExpression, rule.Lifecycle])).toEqual([
        ['Daily', 'cron(0 5 * * ? *)', { DeleteAfterDays: 35 }],
        ['MonthlyForTaxRetention', 'cron(0 6 1 * ? *)', { DeleteAfterDays: days }],
      ]);
      const [[tableId]] = ofType(resources, 'AWS::DynamoDB::Table') as [[string, Resource]];
      const selections = ofType(resources, 'AWS::Backup::BackupSelection');
      expect(selections).toHaveLength(1);
      expect(JSON.stringify(selections[0]![1].Properties!.BackupSelection.Resources)).toContain(tableId);
    }
    const [[, vault]] = ofType(prod, 'AWS::Backup::BackupVault') as [[string, Resource]];
    expect(vault.DeletionPolicy).toBe('Retain');
  });
});
