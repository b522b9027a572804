import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wholeStack } from './whole-stack.js';
import {
  QUEUES,
  keys,
  ROUTE_NOT_FOUND,
  ROUTES,
  RUNTIME_ENV,
  SCHEDULES,
  USES_NOTHING,
  functionEnvironment,
  type FunctionKind,
  type FunctionUses,
  type QueueKey,
} from '@portal/shared';
import { buildPortalApp } from '../../infra/lib/app.js';
import { PORTAL_FUNCTION_TAG } from '../../infra/lib/constructs/portal-function.js';
import { FUNCTION_TELEMETRY_ENV } from '../../infra/lib/telemetry.js';
import { refId, type Resource, type Resources } from './resources.js';

/**
 * Least privilege from the declarations (docs/permissions.md): every route's function, every queue consumer and
 * every job has exactly the IAM actions, on exactly the resources, that its declaration implies, and exactly the
 * environment functionEnvironment derives from it. The expected grants are restated here from AWS's action names,
 * not taken from the constructs, so that a construct granting more (or less) than declared fails.
 */

type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

const TABLE_READ = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
];
const TABLE_WRITE = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
const QUEUE_SEND = ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'];
const QUEUE_CONSUME = [
  'sqs:ReceiveMessage',
  'sqs:ChangeMessageVisibility',
  'sqs:GetQueueUrl',
  'sqs:DeleteMessage',
  'sqs:GetQueueAttributes',
];
const SECRET_READ = ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'];
/** What every portal function has: its own log group, and X-Ray (which has no resource-level permissions). */
const BASELINE = [
  'logs:CreateLogStream on logs',
  'logs:PutLogEvents on logs',
  'xray:PutTraceSegments on *',
  'xray:PutTelemetryRecords on *',
];

const grants = (actions: readonly string[], resource: string) => actions.map((action) => `${action} on ${resource}`);

/** The grants a declaration implies, as `<action> on <resource label>`. */
function expectedGrants(uses: FunctionUses, consumes?: QueueKey): string[] {
  const expected = [...BASELINE];
  if (uses.table !== 'none') {
    const actions = uses.table === 'write' ? [...TABLE_READ, ...TABLE_WRITE] : TABLE_READ;
    expected.push(...grants(actions, 'table'), ...grants(actions, 'index'));
  }
  for (const operation of uses.documents ?? []) {
    if (operation === 'read') expected.push('s3:GetObject on documents/*', 's3:ListBucket on documents');
    if (operation === 'delete') expected.push('s3:DeleteObject on documents/*');
    if (operation === 'presignUpload') expected.push('s3:PutObject on documents/*');
    if (operation === 'presignDownload') expected.push('s3:GetObject on documents/*');
    // The exports of the lists: their prefix only.
    if (operation === 'exportWrite')
      expected.push('s3:PutObject on documents/exports/*', 's3:AbortMultipartUpload on documents/exports/*');
    if (operation === 'exportDownload') expected.push('s3:GetObject on documents/exports/*');
  }
  for (const key of uses.queues ?? []) expected.push(...grants(QUEUE_SEND, `queue:${key}`));
  if (consumes) expected.push(...grants(QUEUE_CONSUME, `queue:${consumes}`));
  for (const operation of uses.userPool ?? []) expected.push(`cognito-idp:${operation} on userPool`);
  if (uses.email) expected.push('ses:SendEmail on ses:identity', 'ses:SendEmail on ses:configurationSet');
  if (uses.sap) expected.push(...grants(SECRET_READ, 'secret:sap'));
  if (uses.sunat) expected.push(...grants(SECRET_READ, 'secret:sunat'));
  // An API client's call counter: UpdateItem on RATE# items only (checked below), for a route that otherwise reads.
  if (uses.apiClientRate && uses.table !== 'write') expected.push('dynamodb:UpdateItem on table');
  if (uses.apiAuthorizer) expected.push('apigateway:GET on apiAuthorizer', 'apigateway:PATCH on apiAuthorizer');
  // The received e-mails: read and deleted, under inbound-mail/ only.
  if (uses.inboundMail)
    expected.push('s3:GetObject on inboundMail/inbound-mail/*', 's3:DeleteObject on inboundMail/inbound-mail/*');
  return [...new Set(expected)].sort();
}

const asList = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

const tagOf = (resource: Resource) =>
  ((resource.Properties?.Tags ?? []) as { Key: string; Value: string }[]).find((tag) => tag.Key === PORTAL_FUNCTION_TAG)
    ?.Value;

describe('least privilege: each function is granted exactly what it declares (stage prod)', () => {
  let outdir: string;
  let stateful: Resources;
  let stateless: Resources;
  /** Resource labels: logical ids of the stateful stack's resources a statement may name. */
  let labels: [string, string][];

  beforeAll(() => {
    outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-cdk-permissions-'));
    const portal = buildPortalApp({ context: { stage: 'prod', 'aws:cdk:bundling-stacks': [] }, outdir });
    // cdk-nag runs at synthesis: an unacknowledged finding on these grants makes this throw.
    portal.app.synth();
    stateful = Template.fromStack(portal.stateful).toJSON().Resources as Resources;
    stateless = wholeStack(portal.stateless).toJSON().Resources as Resources;
    const idOf = (type: string, match: (id: string) => boolean = () => true) => {
      const ids = Object.entries(stateful)
        .filter(([id, r]) => r.Type === type && match(id))
        .map(([id]) => id);
      expect(ids, type).toHaveLength(1);
      return ids[0]!;
    };
    labels = [
      [idOf('AWS::DynamoDB::Table'), 'table'],
      [idOf('AWS::S3::Bucket', (id) => id.includes('Documents')), 'documents'],
      [idOf('AWS::S3::Bucket', (id) => id.startsWith('InboundMail')), 'inboundMail'],
      [idOf('AWS::Cognito::UserPool'), 'userPool'],
      [idOf('AWS::SecretsManager::Secret', (id) => id.startsWith('Sap')), 'secret:sap'],
      [idOf('AWS::SecretsManager::Secret', (id) => id.startsWith('Sunat')), 'secret:sunat'],
      ...(Object.keys(QUEUES) as QueueKey[]).map((key): [string, string] => [
        idOf('AWS::SQS::Queue', (id) => new RegExp(`^Queues${QUEUES[key].id}[A-F0-9]{8}$`).test(id)),
        `queue:${key}`,
      ]),
    ];
  });

  afterAll(() => {
    if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
  });

  function label(resource: unknown, logGroupId: string): string {
    if (resource === '*') return '*';
    const text = JSON.stringify(resource);
    if (text.includes(`"${logGroupId}"`)) return 'logs';
    if (text.includes(':identity/')) return 'ses:identity';
    if (text.includes(':configuration-set/')) return 'ses:configurationSet';
    if (text.includes(':apigateway:') && text.includes('/authorizers/')) return 'apiAuthorizer';
    const found = labels.find(([id]) => text.includes(id));
    if (!found) return text;
    const [, name] = found;
    if (name === 'table' && text.includes('/index/')) return 'index';
    if (name === 'documents' && text.includes('/exports/*')) return 'documents/exports/*';
    if (name === 'documents' && text.includes('/*')) return 'documents/*';
    if (name === 'inboundMail' && text.includes('/inbound-mail/*')) return 'inboundMail/inbound-mail/*';
    return name;
  }

  /** The statements of a role: its inline policies and its managed policies (this stack's or imported). */
  function statementsOf(roleId: string): Statement[] {
    const inline = Object.values(stateless)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .filter((r) => asList(r.Properties!.Roles).some((role) => refId(role) === roleId))
      .flatMap((r) => r.Properties!.PolicyDocument.Statement as Statement[]);
    const managed = asList(stateless[roleId]!.Properties!.ManagedPolicyArns).flatMap((arn) => {
      const text = JSON.stringify(arn);
      const policy = Object.entries({ ...stateful, ...stateless }).find(
        ([id, r]) => r.Type === 'AWS::IAM::ManagedPolicy' && text.includes(id),
      );
      expect(policy, text).toBeDefined();
      return policy![1].Properties!.PolicyDocument.Statement as Statement[];
    });
    return [...inline, ...managed];
  }

  /** Every portal function of the stateless stack by name: its grants and its environment's keys. */
  function functions() {
    return new Map(
      Object.values(stateless)
        .filter((r) => r.Type === 'AWS::Lambda::Function' && tagOf(r) !== undefined)
        .map((fn) => {
          const logGroupId = refId(fn.Properties!.LoggingConfig.LogGroup)!;
          const all = statementsOf(refId(fn.Properties!.Role)!);
          const statements = all.filter((statement) => statement.Effect === 'Allow');
          const denied = all.filter((statement) => statement.Effect !== 'Allow');
          const granted = statements.flatMap((statement) =>
            asList(statement.Action).flatMap((action) =>
              asList(statement.Resource).map((resource) => `${action} on ${label(resource, logGroupId)}`),
            ),
          );
          const environment = Object.keys(fn.Properties!.Environment?.Variables ?? {});
          return [
            tagOf(fn)!,
            { granted: [...new Set(granted)].sort(), denied, environment: environment.sort() },
          ] as const;
        }),
    );
  }

  /** Every declared function: its name in the template, its kind, its declaration, the queue it consumes. */
  function declared(): { name: string; kind: FunctionKind; uses: FunctionUses; consumes?: QueueKey }[] {
    return [
      ...ROUTES.map((route) => ({ name: route.id, kind: 'api' as const, uses: route.uses })),
      { name: ROUTE_NOT_FOUND.id, kind: 'api' as const, uses: USES_NOTHING },
      ...(Object.keys(QUEUES) as QueueKey[]).map((key) => ({
        name: `worker-${QUEUES[key].consumer}`,
        kind: 'worker' as const,
        uses: QUEUES[key].consumerUses,
        consumes: key,
      })),
      ...Object.values(SCHEDULES).map((def) => ({ name: `job-${def.handler}`, kind: 'job' as const, uses: def.uses })),
    ];
  }

  it("grants every API function, consumer and job exactly its declaration's actions on its resources", () => {
    const byName = functions();
    const all = declared();
    expect(all.length).toBe(ROUTES.length + 1 + Object.keys(QUEUES).length + Object.keys(SCHEDULES).length);
    for (const { name, uses, consumes } of all) {
      expect(byName.get(name)?.granted, name).toEqual(expectedGrants(uses, consumes));
    }
  });

  it('keeps reads from writing: a read-only route has no write action, a route without files no S3 action', () => {
    const byName = functions();
    const readers = ROUTES.filter((route) => route.uses.table === 'read');
    expect(readers.map((route) => route.id)).toEqual(expect.arrayContaining(['getInvoice', 'listInvoices']));
    for (const route of readers) {
      const granted = byName.get(route.id)!.granted;
      expect(
        granted.filter((grant) => TABLE_WRITE.some((action) => grant.startsWith(`${action} `))),
        route.id,
      ).toEqual(route.uses.apiClientRate ? ['dynamodb:UpdateItem on table'] : []);
      if (!route.uses.documents)
        expect(
          granted.filter((grant) => grant.startsWith('s3:')),
          route.id,
        ).toEqual([]);
      if (!route.uses.queues)
        expect(
          granted.filter((grant) => grant.startsWith('sqs:')),
          route.id,
        ).toEqual([]);
    }
  });

  it('lets a read-only machine route update its API client counters (RATE# items) and nothing else', () => {
    const readers = ROUTES.filter((route) => route.uses.table === 'read' && route.uses.apiClientRate);
    expect(readers.map((route) => route.id)).toEqual(expect.arrayContaining(['listInvoices', 'getInvoice']));
    const counters = Object.values(stateless)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .flatMap((r) => r.Properties!.PolicyDocument.Statement as (Statement & { Condition?: unknown })[])
      .filter(
        (statement) =>
          statement.Effect === 'Allow' &&
          asList(statement.Action).includes('dynamodb:UpdateItem') &&
          statement.Condition,
      );
    expect(counters.length).toBeGreaterThanOrEqual(readers.length);
    for (const statement of counters) {
      expect(asList(statement.Action)).toEqual(['dynamodb:UpdateItem']);
      expect(statement.Condition).toEqual({
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${keys.apiClientRatePrefix}*`] },
      });
    }
  });

  it('denies every function that reaches the table the update and deletion of audit records, and denies nothing else', () => {
    const byName = functions();
    const withTable = declared().filter(({ uses }) => uses.table !== 'none');
    expect(withTable.map(({ name }) => name)).toEqual(expect.arrayContaining(['approveInvoice', 'listInvoiceHistory']));
    for (const { name, uses } of declared()) {
      const denied = byName.get(name)!.denied;
      if (uses.table === 'none') {
        expect(denied, name).toEqual([]);
        continue;
      }
      expect(denied, name).toHaveLength(1);
      const [statement] = denied as (Statement & { Condition?: unknown })[];
      expect(statement!.Effect).toBe('Deny');
      expect(asList(statement!.Action).sort()).toEqual(['dynamodb:DeleteItem', 'dynamodb:UpdateItem']);
      expect(asList(statement!.Resource).map((resource) => label(resource, ''))).toEqual(['table']);
      expect(statement!.Condition).toEqual({
        'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [`${keys.auditPrefix}*`] },
      });
    }
  });

  it('sets on every function exactly the environment its declaration implies, and the telemetry', () => {
    const byName = functions();
    const always = Object.keys(FUNCTION_TELEMETRY_ENV);
    // The API's reads and the not-found route are traced in a ratio of their own (docs/adr/0041-trace-sampling.md).
    const sampled = new Set([
      ...ROUTES.filter((route) => route.method === 'GET').map((route) => route.id),
      ROUTE_NOT_FOUND.id,
    ]);
    for (const { name, kind, uses } of declared()) {
      const ratio = sampled.has(name) ? [RUNTIME_ENV.traceSampleRatio] : [];
      expect(byName.get(name)?.environment, name).toEqual(
        [...functionEnvironment(kind, uses), ...always, ...ratio].sort(),
      );
    }
  });
});
