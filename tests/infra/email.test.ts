import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wholeStack } from './whole-stack.js';
import { RUNTIME_ENV } from '@portal/shared';
import { buildPortalApp, type PortalApp } from '../../infra/lib/app.js';
import { PORTAL_FUNCTION_TAG } from '../../infra/lib/constructs/portal-function.js';

type Resource = { Type: string; Properties?: Record<string, unknown>; DependsOn?: string[] };
type Statement = { Action: string | string[]; Resource: unknown; Effect: string };

const SENDER = 'no-responder@proveedores.grupo.pe';
const ZONE_ID = 'Z0123456789ABCDEFGHIJ';
const CONFIGURATION_SET = 'portal-proveedores-prod';

/**
 * The functions that send e-mail: the invitations of user administration, the notifications worker, the answers to
 * e-mailed invoices, the intake-batches worker (the summary of a zip).
 */
const SENDERS = [
  'createExternalUser',
  'resetExternalUserPassword',
  'worker-intake-batches',
  'worker-notifications',
  'worker-inbound-mail',
  // The staff's «Resumen diario» (ADR 0039).
  'job-send-daily-digest',
];

function tagOf(resource: Resource, key: string): string | undefined {
  const tags = (resource.Properties?.Tags ?? []) as { Key: string; Value: string }[];
  return tags.find((tag) => tag.Key === key)?.Value;
}

/** The ses:* statements of every policy attached to a role, by role logical id. */
function sesStatementsByRole(resources: Record<string, Resource>): Map<string, Statement[]> {
  const byRole = new Map<string, Statement[]>();
  for (const policy of Object.values(resources).filter((r) => r.Type === 'AWS::IAM::Policy')) {
    const statements = (policy.Properties!.PolicyDocument as { Statement: Statement[] }).Statement.filter((s) =>
      [s.Action].flat().some((action) => action.startsWith('ses:')),
    );
    if (statements.length === 0) continue;
    for (const role of policy.Properties!.Roles as { Ref: string }[]) {
      byRole.set(role.Ref, [...(byRole.get(role.Ref) ?? []), ...statements]);
    }
  }
  return byRole;
}

describe('e-mail through SES, stage prod', () => {
  let outdir: string;
  let portal: PortalApp;
  let stateful: Template;
  let statelessResources: Record<string, Resource>;

  beforeAll(() => {
    outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-email-'));
    portal = buildPortalApp({
      context: {
        'aws:cdk:bundling-stacks': [],
        stage: 'prod',
        emailSender: { address: SENDER, hostedZoneId: ZONE_ID },
      },
      outdir,
    });
    // With cdk-nag: an unacknowledged finding throws.
    portal.app.synth();
    stateful = Template.fromStack(portal.stateful);
    statelessResources = wholeStack(portal.stateless).toJSON().Resources as Record<string, Resource>;
  });

  afterAll(() => {
    if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
  });

  it('verifies the sender’s domain with Easy DKIM, writing the DKIM records into the hosted zone', () => {
    stateful.hasResourceProperties('AWS::SES::EmailIdentity', {
      EmailIdentity: 'proveedores.grupo.pe',
      DkimAttributes: { SigningEnabled: true },
    });
    const records = Object.values(stateful.findResources('AWS::Route53::RecordSet')) as Resource[];
    expect(records).toHaveLength(3);
    for (const record of records) expect(record.Properties).toMatchObject({ HostedZoneId: ZONE_ID, Type: 'CNAME' });
  });

  it('sends through a configuration set that requires TLS, keeps reputation metrics and counts bounces', () => {
    stateful.hasResourceProperties('AWS::SES::ConfigurationSet', {
      Name: CONFIGURATION_SET,
      DeliveryOptions: { TlsPolicy: 'REQUIRE' },
      ReputationOptions: { ReputationMetricsEnabled: true },
      SendingOptions: { SendingEnabled: true },
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
    });
    stateful.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      EventDestination: Match.objectLike({
        Enabled: true,
        CloudWatchDestination: Match.anyValue(),
        MatchingEventTypes: Match.arrayWith(['bounce', 'complaint', 'reject']),
      }),
    });
  });

  it('lets only the functions that send e-mail call ses:SendEmail, from the sender’s identity and set only', () => {
    const sesByRole = sesStatementsByRole(statelessResources);
    const functions = Object.values(statelessResources).filter(
      (r) => r.Type === 'AWS::Lambda::Function' && tagOf(r, PORTAL_FUNCTION_TAG),
    );
    const sending = functions.filter((fn) =>
      sesByRole.has((fn.Properties!.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0]!),
    );
    expect(sending.map((fn) => tagOf(fn, PORTAL_FUNCTION_TAG)).sort()).toEqual([...SENDERS].sort());

    for (const statements of sesByRole.values()) {
      expect(statements).toHaveLength(1);
      const [statement] = statements;
      expect(statement!.Action).toBe('ses:SendEmail');
      const resources = JSON.stringify(statement!.Resource);
      expect(resources).toContain(':identity/proveedores.grupo.pe');
      expect(resources).toContain(`:configuration-set/${CONFIGURATION_SET}`);
      expect(resources).not.toContain('*');
    }
  });

  it('tells the sending functions the From header and the configuration set the mailer uses', () => {
    for (const fn of Object.values(statelessResources).filter((r) => r.Type === 'AWS::Lambda::Function')) {
      const variables = (fn.Properties!.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;
      const name = tagOf(fn, PORTAL_FUNCTION_TAG);
      if (name && SENDERS.includes(name)) {
        expect(variables).toMatchObject({
          [RUNTIME_ENV.emailSender]: `Portal de Proveedores <${SENDER}>`,
          [RUNTIME_ENV.emailConfigurationSet]: CONFIGURATION_SET,
        });
      } else {
        expect(variables?.[RUNTIME_ENV.emailSender]).toBeUndefined();
      }
    }
  });

  it('has Cognito send its codes through SES from the same sender and set, once the identity exists', () => {
    const [identityId] = Object.keys(stateful.findResources('AWS::SES::EmailIdentity'));
    const pools = Object.values(stateful.findResources('AWS::Cognito::UserPool')) as Resource[];
    expect(pools).toHaveLength(1);
    expect(pools[0]!.Properties!.EmailConfiguration).toMatchObject({
      EmailSendingAccount: 'DEVELOPER',
      From: `Portal de Proveedores <${SENDER}>`,
      ConfigurationSet: CONFIGURATION_SET,
    });
    expect(JSON.stringify(pools[0]!.Properties!.EmailConfiguration)).toContain(':identity/proveedores.grupo.pe');
    expect(pools[0]!.DependsOn).toContain(identityId);
  });

  it('enforces threat protection on the Plus plan, blocking leaked passwords and high-risk sign-ins', () => {
    stateful.hasResourceProperties('AWS::Cognito::UserPool', {
      UserPoolTier: 'PLUS',
      UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
    });
    stateful.hasResourceProperties('AWS::Cognito::UserPoolRiskConfigurationAttachment', {
      ClientId: 'ALL',
      CompromisedCredentialsRiskConfiguration: { Actions: { EventAction: 'BLOCK' } },
      AccountTakeoverRiskConfiguration: {
        Actions: Match.objectLike({ HighAction: { EventAction: 'BLOCK', Notify: false } }),
      },
    });
  });

  it('keeps every function’s logs for the stage’s retention', () => {
    const groups = Object.entries(statelessResources).filter(
      ([id, r]) => r.Type === 'AWS::Logs::LogGroup' && /(Function|Worker|Job)Logs/.test(id),
    );
    expect(groups.length).toBeGreaterThan(0);
    for (const [, group] of groups) expect(group.Properties!.RetentionInDays).toBe(365);
    stateful.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 365 });
  });
});

describe('e-mail on stage dev', () => {
  it('leaves Cognito’s codes to Cognito and writes no DNS records without a hosted zone', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-email-'));
    try {
      const portal = buildPortalApp({
        context: { 'aws:cdk:bundling-stacks': [], stage: 'dev', corporateSso: 'none' },
        outdir,
        nag: false,
      });
      const stateful = Template.fromStack(portal.stateful);
      stateful.resourceCountIs('AWS::SES::EmailIdentity', 1);
      stateful.resourceCountIs('AWS::Route53::RecordSet', 0);
      stateful.hasResourceProperties('AWS::Cognito::UserPool', {
        EmailConfiguration: { EmailSendingAccount: 'COGNITO_DEFAULT' },
        UserPoolTier: 'PLUS',
        UserPoolAddOns: { AdvancedSecurityMode: 'AUDIT' },
      });
      stateful.resourceCountIs('AWS::Cognito::UserPoolRiskConfigurationAttachment', 0);
      stateful.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
    } finally {
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  });
});
