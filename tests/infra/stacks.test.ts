import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wholeStack } from './whole-stack.js';
import {
  areaOf,
  QUEUES,
  ROUTE_NOT_FOUND,
  ROUTES,
  RUNTIME_ENV,
  SCHEDULES,
  TABLE,
  type RouteArea,
  type ScheduleDef,
} from '@portal/shared';
import type { Stack } from 'aws-cdk-lib';
import { buildPortalApp, stackNames, type PortalApp } from '../../infra/lib/app.js';
import { PORTAL_FUNCTION_TAG } from '../../infra/lib/constructs/portal-function.js';
import { resolveStageConfig } from '../../infra/lib/stage-config.js';
import { CLOCK_OFFSET_FILE_ENV } from '../../functions/src/adapters/clock.js';
import { refId, tagOf, type Resource, type Resources } from './resources.js';

describe('CDK app, stage dev', () => {
  let outdir: string;
  let portal: PortalApp;
  let stateful: Template;
  let stateless: Template;
  let statelessResources: Resources;

  beforeAll(() => {
    outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-cdk-'));
    // Without bundling the functions (some 110 esbuild runs, a third of the infra project's time): what is asserted
    // here is the templates; cdk-bundling.test.ts proves CDK's bundle is the one bundle-budgets.test.ts builds for
    // every function.
    portal = buildPortalApp({ context: { stage: 'dev', 'aws:cdk:bundling-stacks': [] }, outdir });
    // Synthesizes both stacks with cdk-nag: an unacknowledged AwsSolutions error makes this throw.
    portal.app.synth();
    stateful = Template.fromStack(portal.stateful);
    stateless = wholeStack(portal.stateless);
    statelessResources = stateless.toJSON().Resources as Resources;
  });

  afterAll(() => {
    if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
  });

  it('names the stacks after the stage', () => {
    expect(portal.stateful.stackName).toBe(stackNames('dev').stateful);
    expect(portal.stateless.stackName).toBe('Portal-dev-Stateless');
  });

  it('creates one function per manifest route, queue consumer and scheduled job, plus only the CDK deployment handler', () => {
    const functions = Object.entries(statelessResources).filter(([, r]) => r.Type === 'AWS::Lambda::Function');
    const portalFunctions = functions.filter(([, r]) => tagOf(r, PORTAL_FUNCTION_TAG) !== undefined);
    const tagValues = portalFunctions.map(([, r]) => tagOf(r, PORTAL_FUNCTION_TAG)).sort();
    // One function per route (and the $default route's), per queue consumer (workers) and per scheduled job.
    const workers = Object.values(QUEUES).flatMap((def) => (def.consumer ? [`worker-${def.consumer}`] : []));
    const jobs = Object.values(SCHEDULES).map((def) => `job-${def.handler}`);
    expect(tagValues).toEqual([...ROUTES.map((route) => route.id), ROUTE_NOT_FOUND.id, ...workers, ...jobs].sort());

    // Every other function must be the handler behind the BucketDeployment custom resources.
    const deploymentHandlers = new Set(
      Object.values(statelessResources)
        .filter((r) => r.Type === 'Custom::CDKBucketDeployment')
        .map((r) => refId(r.Properties?.ServiceToken)),
    );
    const others = functions.filter(([, r]) => tagOf(r, PORTAL_FUNCTION_TAG) === undefined).map(([id]) => id);
    expect(others).toEqual([...deploymentHandlers]);
    expect(others).toHaveLength(1);
    expect(functions).toHaveLength(tagValues.length + 1);
  });

  it("puts each route's function, role and invoke permission in its area's stack, the workers and jobs in Background", () => {
    const tagsIn = (stack: Stack) =>
      Object.values(Template.fromStack(stack).findResources('AWS::Lambda::Function') as Resources)
        .map((fn) => tagOf(fn, PORTAL_FUNCTION_TAG))
        .sort();
    const byArea = new Map<string, string[]>();
    for (const route of ROUTES) byArea.set(areaOf(route), [...(byArea.get(areaOf(route)) ?? []), route.id]);
    byArea.get('platform')!.push(ROUTE_NOT_FOUND.id);
    expect([...portal.stateless.api.areas.keys()].sort()).toEqual([...byArea.keys()].sort());
    for (const [area, ids] of byArea) {
      const stack = portal.stateless.api.areas.get(area as RouteArea)!;
      expect(tagsIn(stack), area).toEqual(ids.sort());
      // Its role and the API Gateway permission of each function beside it: the parent keeps a route and its
      // integration.
      const template = Template.fromStack(stack);
      const own = template.toJSON().Resources as Resources;
      for (const fn of Object.values(template.findResources('AWS::Lambda::Function') as Resources)) {
        expect(own[refId(fn.Properties!.Role)!]?.Type).toBe('AWS::IAM::Role');
      }
      const permissions = template.findResources('AWS::Lambda::Permission');
      expect(Object.keys(permissions), area).toHaveLength(ids.length);
    }
    const workers = Object.values(QUEUES).flatMap((def) => (def.consumer ? [`worker-${def.consumer}`] : []));
    const jobs = Object.values(SCHEDULES).map((def) => `job-${def.handler}`);
    expect(tagsIn(portal.stateless.background)).toEqual([...workers, ...jobs].sort());
    const parent = Template.fromStack(portal.stateless).toJSON().Resources as Resources;
    const parentTypes = Object.values(parent).map((resource) => resource.Type);
    expect(parentTypes.filter((type) => type === 'AWS::Lambda::Permission')).toHaveLength(0);
    expect(parentTypes.filter((type) => type === 'AWS::ApiGatewayV2::Route')).toHaveLength(ROUTES.length + 1);
  });

  it('gives the stateful stack only the PreTokenGeneration trigger, wired to the user pool', () => {
    const functions = Object.entries(stateful.findResources('AWS::Lambda::Function')) as [string, Resource][];
    expect(functions.map(([, r]) => tagOf(r, PORTAL_FUNCTION_TAG))).toEqual(['preTokenGeneration']);
    const [triggerId] = functions[0]!;
    stateful.hasResourceProperties('AWS::Cognito::UserPool', {
      LambdaConfig: {
        PreTokenGenerationConfig: { LambdaArn: { 'Fn::GetAtt': [triggerId, 'Arn'] }, LambdaVersion: 'V3_0' },
      },
    });
  });

  it('runs every portal function on Node.js 24, arm64, with tracing and JSON logs', () => {
    for (const template of [stateful, stateless]) {
      const functions = Object.values(template.findResources('AWS::Lambda::Function')) as Resource[];
      for (const fn of functions.filter((r) => tagOf(r, PORTAL_FUNCTION_TAG) !== undefined)) {
        expect(fn.Properties).toMatchObject({
          Runtime: 'nodejs24.x',
          Architectures: ['arm64'],
          TracingConfig: { Mode: 'PassThrough' },
          LoggingConfig: { LogFormat: 'JSON' },
        });
      }
    }
  });

  /** The portal function a route's integration invokes (its tag), or undefined. */
  const functionOfRoute = (route: Resource): string | undefined => {
    const target = route.Properties!.Target as { 'Fn::Join': [string, unknown[]] };
    const integration = statelessResources[refId(target['Fn::Join'][1][1])!];
    expect(integration?.Type).toBe('AWS::ApiGatewayV2::Integration');
    const fn = statelessResources[refId(integration!.Properties!.IntegrationUri)!];
    return fn && tagOf(fn, PORTAL_FUNCTION_TAG);
  };

  it('exposes every manifest route with its method and path, integrated with its own function', () => {
    const routes = Object.values(stateless.findResources('AWS::ApiGatewayV2::Route')) as Resource[];
    // The manifest's routes and the $default one.
    expect(routes).toHaveLength(ROUTES.length + 1);
    for (const def of ROUTES) {
      const route = routes.find((r) => r.Properties?.RouteKey === `${def.method} ${def.path}`);
      expect(route, `${def.method} ${def.path}`).toBeDefined();
      expect(functionOfRoute(route!), def.id).toBe(def.id);
    }
  });

  it('sends whatever no route serves to the $default route, unauthorized, whose function answers the 404', () => {
    const routes = Object.values(stateless.findResources('AWS::ApiGatewayV2::Route')) as Resource[];
    const fallback = routes.filter((r) => r.Properties?.RouteKey === '$default');
    expect(fallback).toHaveLength(1);
    expect(functionOfRoute(fallback[0]!)).toBe(ROUTE_NOT_FOUND.id);
    expect(fallback[0]!.Properties?.AuthorizationType ?? 'NONE').toBe('NONE');
    expect(fallback[0]!.Properties?.AuthorizerId).toBeUndefined();
  });

  it('puts the Cognito JWT authorizer on every jwt route and none on public ones', () => {
    const authorizers = stateless.findResources('AWS::ApiGatewayV2::Authorizer', {
      Properties: {
        AuthorizerType: 'JWT',
        IdentitySource: ['$request.header.Authorization'],
        // One audience: the web client (a cross-stack reference, hence not a literal).
        JwtConfiguration: { Audience: [Match.anyValue()], Issuer: Match.anyValue() },
      },
    });
    const authorizerIds = Object.keys(authorizers);
    expect(authorizerIds).toHaveLength(1);

    const routes = Object.values(stateless.findResources('AWS::ApiGatewayV2::Route')) as Resource[];
    for (const def of ROUTES) {
      const props = routes.find((r) => r.Properties?.RouteKey === `${def.method} ${def.path}`)?.Properties;
      if (def.auth === 'jwt') {
        expect(props, def.id).toMatchObject({ AuthorizationType: 'JWT', AuthorizerId: { Ref: authorizerIds[0] } });
      } else {
        expect(props?.AuthorizationType, def.id).toBe('NONE');
        expect(props?.AuthorizerId, def.id).toBeUndefined();
      }
    }
    const publicIds = ROUTES.filter((r) => r.auth === 'public').map((r) => r.id);
    expect(publicIds.sort()).toEqual(['healthcheck', 'heartbeat', 'openapi']);
  });

  it('allows the web origin and the portal headers through CORS', () => {
    const apis = Object.values(stateless.findResources('AWS::ApiGatewayV2::Api'));
    expect(apis).toHaveLength(1);
    const cors = apis[0]!.Properties.CorsConfiguration as { AllowOrigins: string[]; AllowHeaders: string[] };
    expect(cors.AllowOrigins).toContain('http://localhost:5173');
    for (const header of ['authorization', 'content-type', 'x-company-id', 'x-consumer-id', 'x-request-id']) {
      expect(cors.AllowHeaders).toContain(header);
    }
  });

  it('keeps the table recoverable, encrypted and indexed as shared TABLE says', () => {
    stateful.resourceCountIs('AWS::DynamoDB::Table', 1);
    stateful.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
      TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      // The retired indexes too (ADR 0044): a deployed table loses them one per deploy, not all at once.
      GlobalSecondaryIndexes: [...Object.values(TABLE.indexes), ...Object.values(TABLE.retiredIndexes)]
        .sort((a, b) => Number(a.name.slice(3)) - Number(b.name.slice(3)))
        .map((index) => ({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
    });
  });

  it('gives every queue of shared QUEUES a dead-letter queue with its receive count', () => {
    const queues = stateful.findResources('AWS::SQS::Queue') as Record<string, Resource>;
    const withRedrive = Object.values(queues).filter((q) => q.Properties?.RedrivePolicy !== undefined);
    expect(withRedrive).toHaveLength(Object.keys(QUEUES).length);
    expect(Object.keys(queues)).toHaveLength(2 * Object.keys(QUEUES).length);

    for (const def of Object.values(QUEUES)) {
      // By its logical id: two queues may share a visibility timeout (the exports' and the inbound e-mails').
      const id = Object.keys(queues).find((key) => new RegExp(`^Queues${def.id}[A-F0-9]{8}$`).test(key));
      const queue = id ? queues[id] : undefined;
      expect(queue, def.id).toBeDefined();
      expect(queue!.Properties?.VisibilityTimeout, def.id).toBe(def.visibilityTimeoutSeconds);
      const redrive = queue!.Properties!.RedrivePolicy as { maxReceiveCount: number; deadLetterTargetArn: unknown };
      expect(redrive.maxReceiveCount).toBe(def.maxReceiveCount);
      const dlq = queues[refId(redrive.deadLetterTargetArn)!];
      expect(dlq?.Properties?.RedrivePolicy).toBeUndefined();
      expect(dlq?.Properties).toMatchObject({ SqsManagedSseEnabled: true });
    }
  });

  it('keeps the documents bucket private, versioned and TLS-only', () => {
    stateful.hasResourceProperties('AWS::S3::Bucket', {
      VersioningConfiguration: { Status: 'Enabled' },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      CorsConfiguration: { CorsRules: [Match.objectLike({ AllowedOrigins: ['http://localhost:5173'] })] },
    });
  });

  it('serves the site through CloudFront with origin access control, routing app paths to index.html', () => {
    stateless.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    stateless.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ DefaultRootObject: 'index.html', CustomErrorResponses: Match.absent() }),
    });
    // The viewer-request function of the site's behaviour, run as CloudFront would run it.
    const [fn] = Object.values(stateless.findResources('AWS::CloudFront::Function')) as Resource[];
    const code = fn!.Properties!.FunctionCode as string;
    const handler = new Function(`${code}; return handler;`)() as (event: unknown) => { uri: string };
    const route = (uri: string) => handler({ request: { uri } }).uri;
    expect(route('/invoices/F001-123')).toBe('/index.html');
    expect(route('/')).toBe('/index.html');
    expect(route('/manager/forbidden')).toBe('/index.html');
    expect(route('/assets/index-3f2a.js')).toBe('/assets/index-3f2a.js');
    expect(route('/config.json')).toBe('/config.json');
  });

  it("gives the notifications worker the portal's origin, so that its e-mails link to the invoice", () => {
    const worker = Object.values(statelessResources).find(
      (r) => r.Type === 'AWS::Lambda::Function' && tagOf(r, PORTAL_FUNCTION_TAG) === 'worker-notifications',
    );
    expect(worker?.Properties?.Environment).toMatchObject({
      Variables: { [RUNTIME_ENV.webOrigin]: 'http://localhost:5173' },
    });
  });

  it('runs each scheduled job from an EventBridge rule, and gives the SAP secret only to the SAP functions', () => {
    const rules = Object.values(stateless.findResources('AWS::Events::Rule')) as Resource[];
    expect(rules.map((rule) => rule.Properties?.ScheduleExpression).sort()).toEqual(
      (Object.values(SCHEDULES) as ScheduleDef[])
        .map((def) =>
          def.dailyAtUtc
            ? `cron(${Number(def.dailyAtUtc.slice(3))} ${Number(def.dailyAtUtc.slice(0, 2))} * * ? *)`
            : `rate(${def.everyMinutes} ${def.everyMinutes === 1 ? 'minute' : 'minutes'})`,
        )
        .sort(),
    );
    // The staff's daily digest at 07:00 Lima (ADR 0039).
    expect(rules.map((rule) => rule.Properties?.ScheduleExpression)).toContain('cron(0 12 * * ? *)');
    const withSap = Object.values(statelessResources)
      .filter((r) => r.Type === 'AWS::Lambda::Function')
      .filter((r) => JSON.stringify(r.Properties?.Environment ?? {}).includes('SAP_CREDENTIALS_SECRET_ARN'))
      .map((r) => tagOf(r, PORTAL_FUNCTION_TAG))
      .sort();
    expect(withSap).toEqual(['job-sweep-outbox', 'job-sync-payments', 'worker-miro-requests']);
    expect(Object.keys(stateful.findResources('AWS::SecretsManager::Secret')).length).toBeGreaterThanOrEqual(1);
  });

  it('sets no clock offset on any function: in AWS the portal runs on the system clock', () => {
    const withOffset = Object.values(statelessResources)
      .filter((r) => r.Type === 'AWS::Lambda::Function')
      .filter((r) => JSON.stringify(r.Properties?.Environment ?? {}).includes(CLOCK_OFFSET_FILE_ENV));
    expect(withOffset).toEqual([]);
    expect(Object.values(SCHEDULES).map((def) => def.id)).toContain('AcquirerConformityClock');
  });
});

describe('stage configuration', () => {
  const context = (values: Record<string, unknown>) => (key: string) => values[key];

  it('defaults to dev, not retained, with the default admin group', () => {
    expect(resolveStageConfig(context({}))).toMatchObject({
      stage: 'dev',
      retain: false,
      adminGroupName: 'portal-admins',
    });
  });

  it('retains prod and lets -c values override the defaults', () => {
    const config = resolveStageConfig(context({ stage: 'prod', webOrigin: 'https://portal.acme.pe', retain: 'false' }));
    expect(config).toMatchObject({ stage: 'prod', webOrigin: 'https://portal.acme.pe', retain: false });
    expect(resolveStageConfig(context({ stage: 'prod' })).retain).toBe(true);
  });

  it('refuses an unknown stage without its settings, and a web origin with a path', () => {
    expect(() => resolveStageConfig(context({ stage: 'qa' }))).toThrow(/qa/);
    expect(() => resolveStageConfig(context({ webOrigin: 'https://portal.acme.pe/app' }))).toThrow(/webOrigin/);
  });
});
