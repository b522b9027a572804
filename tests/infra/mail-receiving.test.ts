import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wholeStack } from './whole-stack.js';
import { BUCKETS, INBOUND_MAIL, QUEUES, RUNTIME_ENV } from '@portal/shared';
import { buildPortalApp, type PortalApp } from '../../infra/lib/app.js';
import { resolveStageConfig } from '../../infra/lib/stage-config.js';

const DOMAIN = 'recepcion.proveedores.grupo.pe';

/** Invoices by e-mail in AWS (docs/adr/0035-mail-intake.md): SES receiving, bucket, receipt function. */
describe('SES receiving of the intake addresses, stage dev in us-east-1', () => {
  let outdir: string;
  let portal: PortalApp;
  let stateful: Template;
  let stateless: Template;

  beforeAll(() => {
    outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-mail-'));
    portal = buildPortalApp({
      context: { 'aws:cdk:bundling-stacks': [], stage: 'dev', intakeMail: JSON.stringify({ domain: DOMAIN }) },
      outdir,
    });
    // With cdk-nag: an unacknowledged finding throws.
    portal.app.synth();
    stateful = Template.fromStack(portal.stateful);
    stateless = wholeStack(portal.stateless);
  });

  afterAll(() => {
    if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
  });

  it('keeps received e-mails in a bucket of their own: private, unversioned, gone in three days', () => {
    const buckets = stateful.findResources('AWS::S3::Bucket');
    const [id, bucket] = Object.entries(buckets).find(([key]) => key.startsWith(BUCKETS.inboundMail.id))!;
    expect(id).toBeDefined();
    expect(bucket.Properties.VersioningConfiguration).toBeUndefined();
    expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual([
      expect.objectContaining({ ExpirationInDays: 3, Status: 'Enabled' }),
    ]);
    expect(bucket.Properties.PublicAccessBlockConfiguration).toMatchObject({ BlockPublicAcls: true });
    // Only SES of this account writes there, under inbound-mail/.
    stateful.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: id },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: 's3:PutObject',
            Principal: { Service: 'ses.amazonaws.com' },
            Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
            Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [id, 'Arn'] }, `/${INBOUND_MAIL.prefix}*`]] },
          }),
        ]),
      },
    });
  });

  it('has one rule for the domain: scan, write to inbound-mail/, then hand the message to the receipt function', () => {
    stateless.hasResourceProperties('AWS::SES::ReceiptRuleSet', { RuleSetName: 'portal-proveedores-dev-intake' });
    const rules = Object.values(stateless.findResources('AWS::SES::ReceiptRule'));
    expect(rules).toHaveLength(1);
    const rule = rules[0]!.Properties.Rule;
    expect(rule).toMatchObject({ Name: 'intake', Enabled: true, Recipients: [DOMAIN], ScanEnabled: true });
    expect(rule.Actions).toHaveLength(2);
    expect(rule.Actions[0].S3Action).toMatchObject({ ObjectKeyPrefix: INBOUND_MAIL.prefix });
    expect(rule.Actions[1].LambdaAction).toMatchObject({ InvocationType: 'Event' });
    stateless.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'ses.amazonaws.com',
    });
  });

  it('the receipt function only sends to the inboundMail queue; the worker knows the bucket and the domain', () => {
    const functions = stateless.findResources('AWS::Lambda::Function');
    const byTag = (name: string) =>
      Object.values(functions).find((fn) =>
        (fn.Properties.Tags ?? []).some((tag: { Value: string }) => tag.Value === name),
      )!;
    const receipt = byTag('ses-receipt');
    expect(Object.keys(receipt.Properties.Environment.Variables)).toEqual(
      expect.arrayContaining([QUEUES.inboundMail.env, BUCKETS.inboundMail.env]),
    );
    expect(Object.keys(receipt.Properties.Environment.Variables)).not.toContain(RUNTIME_ENV.tableName);
    const worker = byTag('worker-inbound-mail');
    expect(worker.Properties.Environment.Variables[RUNTIME_ENV.intakeMailDomain]).toBe(DOMAIN);
  });
});

describe('the stage configuration of intake by e-mail', () => {
  it('refuses a region where SES does not receive e-mail, naming those where it does', () => {
    const context = { stage: 'prod', intakeMail: JSON.stringify({ domain: DOMAIN }) } as Record<string, unknown>;
    expect(() => resolveStageConfig((key) => context[key])).toThrow(
      /intakeMail: SES does not receive e-mail in sa-east-1; it does in us-east-1, us-west-2, eu-west-1/,
    );
  });

  it('receives nothing unless configured, and `-c intakeMail=none` turns it off', () => {
    expect(resolveStageConfig((key) => ({ stage: 'dev' })[key as 'stage']).intakeMail).toBeNull();
    const context = { stage: 'dev', intakeMail: 'none' } as Record<string, unknown>;
    expect(resolveStageConfig((key) => context[key]).intakeMail).toBeNull();
  });
});
