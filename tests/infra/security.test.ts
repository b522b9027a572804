import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wholeStack } from './whole-stack.js';
import { ERROR_MESSAGES, HEADERS, QUEUES, ROUTE_NOT_FOUND, ROUTES, RUNTIME_ENV } from '@portal/shared';
import { buildPortalApp, type PortalApp } from '../../infra/lib/app.js';
import { PORTAL_FUNCTION_TAG } from '../../infra/lib/constructs/portal-function.js';
import { refId, tagOf, type Resource, type Resources } from './resources.js';

/**
 * The security properties a review asks for, asserted on the production stage's templates (stateful,
 * stateless and the us-east-1 edge stack). cdk-nag runs during the synthesis: a finding throws.
 */

let outdir: string;
let portal: PortalApp;
let templates: { stateful: Template; stateless: Template; edge: Template };
let all: Resources;

function resourcesOf(template: Template): Resources {
  return template.toJSON().Resources as Resources;
}

function ofType(resources: Resources, type: string): [string, Resource][] {
  return Object.entries(resources).filter(([, r]) => r.Type === type);
}

/** Statements of the policy documents of every IAM policy (inline or managed) in the templates. */
function statementsByRole(resources: Resources): Map<string, Record<string, any>[]> {
  const byRole = new Map<string, Record<string, any>[]>();
  const add = (roleId: string | undefined, statements: Record<string, any>[]) => {
    if (!roleId) return;
    byRole.set(roleId, [...(byRole.get(roleId) ?? []), ...statements]);
  };
  for (const [, policy] of ofType(resources, 'AWS::IAM::Policy')) {
    for (const role of policy.Properties?.Roles ?? []) add(refId(role), policy.Properties!.PolicyDocument.Statement);
  }
  for (const [id, role] of ofType(resources, 'AWS::IAM::Role')) {
    for (const managed of role.Properties?.ManagedPolicyArns ?? []) {
      const managedId = refId(managed);
      const policy = managedId ? resources[managedId] : undefined;
      if (policy?.Type === 'AWS::IAM::ManagedPolicy') add(id, policy.Properties!.PolicyDocument.Statement);
    }
  }
  return byRole;
}

function asArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** Bucket policies or queue policies that deny every request not made over TLS. */
function deniesInsecureTransport(policyDocument: Record<string, any>): boolean {
  return asArray(policyDocument.Statement).some(
    (statement: Record<string, any>) =>
      statement.Effect === 'Deny' && statement.Condition?.Bool?.['aws:SecureTransport'] === 'false',
  );
}

beforeAll(() => {
  outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-cdk-security-'));
  // Lambda bundling skipped: these assertions read resources and policies, not function code.
  portal = buildPortalApp({ context: { stage: 'prod', 'aws:cdk:bundling-stacks': [] }, outdir });
  portal.app.synth();
  templates = {
    stateful: Template.fromStack(portal.stateful),
    stateless: wholeStack(portal.stateless),
    edge: Template.fromStack(portal.edge),
  };
  all = {
    ...resourcesOf(templates.stateful),
    ...resourcesOf(templates.stateless),
    ...resourcesOf(templates.edge),
  };
});

afterAll(() => {
  if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
});

describe('production stage: data at rest and in transit', () => {
  it('encrypts every bucket, queue and the table, and keeps the table recoverable and protected', () => {
    for (const [id, bucket] of ofType(all, 'AWS::S3::Bucket')) {
      expect(bucket.Properties?.BucketEncryption, id).toBeDefined();
      expect(bucket.Properties?.PublicAccessBlockConfiguration, id).toMatchObject({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
    }
    for (const [id, queue] of ofType(all, 'AWS::SQS::Queue')) {
      const encrypted = queue.Properties?.SqsManagedSseEnabled === true || queue.Properties?.KmsMasterKeyId;
      expect(encrypted, id).toBeTruthy();
    }
    const tables = ofType(all, 'AWS::DynamoDB::Table');
    expect(tables).toHaveLength(1);
    const [, table] = tables[0]!;
    expect(table.Properties?.SSESpecification).toMatchObject({ SSEEnabled: true });
    expect(table.Properties?.PointInTimeRecoverySpecification).toMatchObject({ PointInTimeRecoveryEnabled: true });
    expect(table.Properties?.DeletionProtectionEnabled).toBe(true);
    expect(table.Properties?.TimeToLiveSpecification).toMatchObject({ Enabled: true });
    expect(table.DeletionPolicy).toBe('Retain');
  });

  it('refuses plain-HTTP access to every bucket and every queue', () => {
    const bucketIds = ofType(all, 'AWS::S3::Bucket').map(([id]) => id);
    const protectedBuckets = ofType(all, 'AWS::S3::BucketPolicy')
      .filter(([, policy]) => deniesInsecureTransport(policy.Properties!.PolicyDocument))
      .map(([, policy]) => refId(policy.Properties!.Bucket));
    expect(new Set(protectedBuckets)).toEqual(new Set(bucketIds));

    const queueIds = ofType(all, 'AWS::SQS::Queue').map(([id]) => id);
    const protectedQueues = ofType(all, 'AWS::SQS::QueuePolicy')
      .filter(([, policy]) => deniesInsecureTransport(policy.Properties!.PolicyDocument))
      .flatMap(([, policy]) => (policy.Properties!.Queues as unknown[]).map(refId));
    expect(new Set(protectedQueues)).toEqual(new Set(queueIds));
  });

  it('versions the documents bucket, aborts abandoned uploads and limits CORS to the site', () => {
    const documents = ofType(all, 'AWS::S3::Bucket').filter(([, b]) => b.Properties?.CorsConfiguration);
    expect(documents).toHaveLength(1);
    const props = documents[0]![1].Properties!;
    expect(props.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(props.LoggingConfiguration?.DestinationBucketName).toBeDefined();
    const abort = (props.LifecycleConfiguration?.Rules ?? []).find(
      (rule: Record<string, any>) => rule.AbortIncompleteMultipartUpload,
    );
    expect(abort?.Status).toBe('Enabled');
    for (const rule of props.CorsConfiguration.CorsRules) {
      expect(rule.AllowedOrigins).toEqual([portal.config.webOrigin]);
    }
  });
});

describe('production stage: queues and workers', () => {
  it('gives every queue a dead-letter queue and a visibility of at least six times its consumer timeout', () => {
    const queues = ofType(all, 'AWS::SQS::Queue');
    const dlqIds = new Set(queues.map(([, q]) => refId(q.Properties?.RedrivePolicy?.deadLetterTargetArn)));
    const mainQueues = queues.filter(([id]) => !dlqIds.has(id));
    expect(mainQueues).toHaveLength(Object.keys(QUEUES).length);
    for (const [id, queue] of mainQueues) expect(queue.Properties?.RedrivePolicy, id).toBeDefined();

    const mappings = ofType(all, 'AWS::Lambda::EventSourceMapping');
    const consumers = Object.values(QUEUES).filter((def) => def.consumer);
    expect(mappings).toHaveLength(consumers.length);
    for (const [id, mapping] of mappings) {
      expect(mapping.Properties?.FunctionResponseTypes, id).toEqual(['ReportBatchItemFailures']);
    }
    const functions = ofType(all, 'AWS::Lambda::Function');
    for (const def of consumers) {
      const [, worker] = functions.find(([, fn]) => tagOf(fn, PORTAL_FUNCTION_TAG) === `worker-${def.consumer}`)!;
      const [, queue] = mainQueues.find(([qid]) => new RegExp(`^Queues${def.id}[A-F0-9]{8}$`).test(qid))!;
      expect(queue.Properties!.VisibilityTimeout, def.id).toBeGreaterThanOrEqual(6 * worker.Properties!.Timeout);
    }
  });
});

describe('production stage: the API', () => {
  it('authorizes every route but the public ones with the Cognito JWT authorizer, for the web client only', () => {
    const routes = ofType(all, 'AWS::ApiGatewayV2::Route');
    // The manifest's routes and $default, which only answers 404 ERROR_ROUTE_NOT_FOUND.
    expect(routes).toHaveLength(ROUTES.length + 1);
    const authorizers = ofType(all, 'AWS::ApiGatewayV2::Authorizer');
    expect(authorizers).toHaveLength(1);
    const [authorizerId, authorizer] = authorizers[0]!;
    expect(authorizer.Properties?.AuthorizerType).toBe('JWT');
    expect(authorizer.Properties?.JwtConfiguration?.Audience).toHaveLength(1);
    expect(JSON.stringify(authorizer.Properties?.JwtConfiguration?.Audience)).toMatch(/WebClient/);
    const publicKeys = new Set([
      ...ROUTES.filter((r) => r.auth === 'public').map((r) => `${r.method} ${r.path}`),
      '$default',
    ]);
    for (const [, route] of routes) {
      const key = route.Properties!.RouteKey as string;
      if (publicKeys.has(key)) {
        expect(route.Properties?.AuthorizationType ?? 'NONE', key).toBe('NONE');
      } else {
        expect(route.Properties?.AuthorizationType, key).toBe('JWT');
        expect(refId(route.Properties?.AuthorizerId), key).toBe(authorizerId);
      }
    }
  });

  it('throttles the stage and writes access logs with retention', () => {
    const stages = ofType(all, 'AWS::ApiGatewayV2::Stage');
    expect(stages).toHaveLength(1);
    const stage = stages[0]![1].Properties!;
    expect(stage.DefaultRouteSettings).toMatchObject({
      ThrottlingRateLimit: expect.any(Number),
      ThrottlingBurstLimit: expect.any(Number),
    });
    const logGroup = all[refId(stage.AccessLogSettings.DestinationArn)!]!;
    expect(logGroup.Properties?.RetentionInDays).toBeGreaterThan(0);
    expect(JSON.parse(stage.AccessLogSettings.Format)).toMatchObject({ requestId: '$context.requestId' });
  });

  it('tells every API function the origin-verify token CloudFront sends', () => {
    const apiIds = [...ROUTES.map((route) => route.id), ROUTE_NOT_FOUND.id];
    const apiFunctions = ofType(all, 'AWS::Lambda::Function').filter(([, fn]) =>
      apiIds.includes(tagOf(fn, PORTAL_FUNCTION_TAG) ?? ''),
    );
    expect(apiFunctions).toHaveLength(apiIds.length);
    const tokens = new Set(
      apiFunctions.map(([, fn]) =>
        JSON.stringify(fn.Properties?.Environment?.Variables?.[RUNTIME_ENV.originVerifyToken]),
      ),
    );
    expect(tokens.size).toBe(1);
    const [token] = [...tokens];
    expect(token).toMatch(/resolve:secretsmanager/);
    const distribution = ofType(all, 'AWS::CloudFront::Distribution')[0]![1].Properties!.DistributionConfig;
    const apiOrigin = distribution.Origins.find((origin: Record<string, any>) => origin.OriginCustomHeaders);
    expect(apiOrigin.OriginCustomHeaders).toEqual([
      { HeaderName: HEADERS.originVerify, HeaderValue: JSON.parse(token!) },
    ]);
  });
});

describe('production stage: functions', () => {
  it('runs every function with log retention, and no portal role is granted a wildcard action', () => {
    for (const [id, group] of ofType(all, 'AWS::Logs::LogGroup')) {
      expect(group.Properties?.RetentionInDays, id).toBeGreaterThan(0);
    }
    const portalFunctions = ofType(all, 'AWS::Lambda::Function').filter(([, fn]) => tagOf(fn, PORTAL_FUNCTION_TAG));
    expect(portalFunctions.length).toBeGreaterThan(ROUTES.length);
    const statements = statementsByRole(all);
    for (const [id, fn] of portalFunctions) {
      expect(fn.Properties?.LoggingConfig?.LogGroup, id).toBeDefined();
      const roleId = refId(fn.Properties!.Role)!;
      const actions = (statements.get(roleId) ?? []).flatMap((statement) => asArray<string>(statement.Action));
      expect(actions.length, id).toBeGreaterThan(0);
      expect(
        actions.filter((action) => action.includes('*')),
        `${tagOf(fn, PORTAL_FUNCTION_TAG)} wildcard actions`,
      ).toEqual([]);
    }
  });
});

describe('production stage: the site, CloudFront and AWS WAF', () => {
  it('protects the distribution with the edge stack web ACL, read across regions', () => {
    expect(portal.edge.region).toBe('us-east-1');
    const distribution = ofType(all, 'AWS::CloudFront::Distribution')[0]![1].Properties!.DistributionConfig;
    // The web ACL lives in us-east-1; the stateless stack reads its ARN from the cross-region export reader.
    expect(JSON.stringify(distribution.WebACLId)).toMatch(/ExportsReader|WebAcl/);
    const [, acl] = ofType(resourcesOf(templates.edge), 'AWS::WAFv2::WebACL')[0]!;
    expect(acl.Properties?.Scope).toBe('CLOUDFRONT');
    const rules = acl.Properties!.Rules as Record<string, any>[];
    const rate = rules.find((rule) => rule.Statement.RateBasedStatement);
    expect(rate?.Action?.Block?.CustomResponse?.ResponseCode).toBe(429);
    // Over the limit, the caller reads the API's error body in Spanish, not WAF's empty 429.
    const bodyKey = rate!.Action.Block.CustomResponse.CustomResponseBodyKey as string;
    const body = acl.Properties!.CustomResponseBodies[bodyKey];
    expect(body.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(body.Content)).toEqual({
      statusCode: 429,
      message: ERROR_MESSAGES.ERROR_TOO_MANY_REQUESTS,
      txId: '',
      errors: [{ code: 'ERROR_TOO_MANY_REQUESTS', parameters: {} }],
    });
    const groups = rules.map((rule) => rule.Statement.ManagedRuleGroupStatement?.Name).filter(Boolean);
    expect(groups).toEqual(
      expect.arrayContaining([
        'AWSManagedRulesCommonRuleSet',
        'AWSManagedRulesKnownBadInputsRuleSet',
        'AWSManagedRulesAmazonIpReputationList',
        'AWSManagedRulesBotControlRuleSet',
      ]),
    );
    const attestation = rules.find((rule) => rule.Action?.Challenge);
    expect(JSON.stringify(attestation?.Statement)).toContain('"SearchString":"/api/"');
    const logging = ofType(resourcesOf(templates.edge), 'AWS::WAFv2::LoggingConfiguration');
    expect(logging).toHaveLength(1);
    // Logged: what a rule blocked, challenged or counted; an allowed request is in CloudFront's access logs only.
    expect(logging[0]![1].Properties!.LoggingFilter).toEqual({
      DefaultBehavior: 'DROP',
      Filters: [
        {
          Behavior: 'KEEP',
          Requirement: 'MEETS_ANY',
          Conditions: ['BLOCK', 'COUNT', 'CAPTCHA', 'CHALLENGE', 'EXCLUDED_AS_COUNT'].map((action) => ({
            ActionCondition: { Action: action },
          })),
        },
      ],
    });
  });

  it('gives API clients (x-api-client) a rate per Authorization header, no challenge and no Bot Control', () => {
    const [, acl] = ofType(resourcesOf(templates.edge), 'AWS::WAFv2::WebACL')[0]!;
    const rules = acl.Properties!.Rules as Record<string, any>[];
    const machinePath = {
      SizeConstraintStatement: {
        FieldToMatch: { SingleHeader: { Name: HEADERS.apiClient } },
        ComparisonOperator: 'GT',
        Size: 0,
        TextTransformations: [{ Priority: 0, Type: 'NONE' }],
      },
    };
    const notMachinePath = { NotStatement: { Statement: machinePath } };
    const perClient = rules.find((rule) => rule.Name === 'RateLimitPerApiClient')!;
    expect(perClient.Statement.RateBasedStatement).toMatchObject({
      AggregateKeyType: 'CUSTOM_KEYS',
      CustomKeys: [{ Header: { Name: 'authorization' } }],
    });
    expect(perClient.Statement.RateBasedStatement.ScopeDownStatement).toEqual(machinePath);
    expect(perClient.Action.Block.CustomResponse.ResponseCode).toBe(429);
    // The challenge and Bot Control leave the machine path; the other managed groups apply to it as to everyone.
    const attestation = rules.find((rule) => rule.Action?.Challenge)!;
    expect(attestation.Statement.AndStatement.Statements).toContainEqual(notMachinePath);
    const botControl = rules.find(
      (rule) => rule.Statement.ManagedRuleGroupStatement?.Name === 'AWSManagedRulesBotControlRuleSet',
    )!;
    expect(botControl.Statement.ManagedRuleGroupStatement.ScopeDownStatement).toEqual(notMachinePath);
    for (const name of ['AWSManagedRulesCommonRuleSet', 'AWSManagedRulesAmazonIpReputationList']) {
      const group = rules.find((rule) => rule.Statement.ManagedRuleGroupStatement?.Name === name)!;
      expect(group.Statement.ManagedRuleGroupStatement.ScopeDownStatement, name).toBeUndefined();
    }
  });

  it('serves the API under /api without caching, and the site with the CSP and SPA routing', () => {
    const distribution = ofType(all, 'AWS::CloudFront::Distribution')[0]![1].Properties!.DistributionConfig;
    const api = distribution.CacheBehaviors.find((b: Record<string, any>) => b.PathPattern === '/api/*');
    expect(api).toBeDefined();
    expect(api.AllowedMethods).toContain('POST');
    // No error-page rewriting: the API's 403 and 404 bodies must reach the app.
    expect(distribution.CustomErrorResponses).toBeUndefined();
    expect(distribution.DefaultCacheBehavior.FunctionAssociations).toHaveLength(1);
    expect(distribution.Logging?.Bucket).toBeDefined();
    const policy = all[refId(distribution.DefaultCacheBehavior.ResponseHeadersPolicyId)!]!;
    const security = policy.Properties!.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    const csp = JSON.stringify(security.ContentSecurityPolicy.ContentSecurityPolicy);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(security.StrictTransportSecurity.AccessControlMaxAgeSec).toBeGreaterThanOrEqual(31_536_000);
  });

  it('publishes config.json with the same-origin API and the WAF integration URL', () => {
    const [, deployment] = ofType(all, 'Custom::CDKBucketDeployment').find(([id]) => id.includes('DeployConfig'))!;
    const [key] = deployment.Properties!.SourceObjectKeys as string[];
    const [markers] = (deployment.Properties!.SourceMarkers ?? [{}]) as Record<string, unknown>[];
    const text = fs.readFileSync(path.join(outdir, `asset.${key!.replace(/\.zip$/, '')}`, 'config.json'), 'utf8');
    const config = JSON.parse(text) as { apiUrl: string; waf: { integrationUrl: string } | null };
    // Deploy-time values are markers; each names what CloudFormation puts there.
    const rendered = (value: string) =>
      Object.entries(markers ?? {}).reduce((out, [marker, v]) => out.replaceAll(marker, JSON.stringify(v)), value);
    expect(config.apiUrl).toMatch(/\/api$/);
    expect(rendered(config.apiUrl)).toContain('WebDistribution');
    expect(config.waf).not.toBeNull();
    expect(rendered(config.waf!.integrationUrl)).toMatch(/IntegrationUrl|ExportsReader/);
  });
});

describe('rotating the origin-verify value', () => {
  it('replaces the secret, and CloudFront and the functions follow it in the same template', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-cdk-rotation-'));
    try {
      const rotated = buildPortalApp({
        context: { stage: 'prod', originVerifyGeneration: '2', 'aws:cdk:bundling-stacks': [] },
        outdir: dir,
        nag: false,
      });
      const resources = resourcesOf(wholeStack(rotated.stateless));
      const secrets = ofType(resources, 'AWS::SecretsManager::Secret').map(([id]) => id);
      const secretId = secrets.find((id) => id.startsWith('OriginVerify2'));
      expect(secretId).toBeDefined();
      expect(secrets.some((id) => /^OriginVerify[A-F0-9]{8}$/.test(id))).toBe(false);
      const distribution = ofType(resources, 'AWS::CloudFront::Distribution')[0]![1].Properties!.DistributionConfig;
      const header = distribution.Origins.find((origin: Record<string, any>) => origin.OriginCustomHeaders);
      expect(JSON.stringify(header.OriginCustomHeaders)).toContain(secretId);
      const [, fn] = ofType(resources, 'AWS::Lambda::Function').find(
        ([, f]) => tagOf(f, PORTAL_FUNCTION_TAG) === ROUTES[0]!.id,
      )!;
      expect(JSON.stringify(fn.Properties!.Environment.Variables[RUNTIME_ENV.originVerifyToken])).toContain(secretId);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
