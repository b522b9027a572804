import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wholeStack } from './whole-stack.js';
import { QUEUES, ROUTES, RUNTIME_ENV, type FunctionUses, type QueueKey } from '@portal/shared';
import { buildPortalApp } from '../../infra/lib/app.js';
import { PORTAL_FUNCTION_TAG } from '../../infra/lib/constructs/portal-function.js';

type Resource = { Type: string; Properties?: Record<string, any> };
type Statement = { Action: string | string[]; Resource: unknown; Effect: string };

const tagOf = (resource: Resource) =>
  ((resource.Properties?.Tags ?? []) as { Key: string; Value: string }[]).find((tag) => tag.Key === PORTAL_FUNCTION_TAG)
    ?.Value;
const asList = <T>(value: T | T[]) => (Array.isArray(value) ? value : [value]);

/**
 * The user administration's reach into Cognito: only the functions of routes whose manifest entry names
 * the user pool get its ids and an IAM grant, and the grant is exactly the operations named, on that pool.
 */
describe('user administration: Cognito permissions (stage dev)', () => {
  let outdir: string;
  let resources: Record<string, Resource>;
  let userPoolId: string;

  beforeAll(() => {
    outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-cdk-users-'));
    const portal = buildPortalApp({ context: { stage: 'dev', 'aws:cdk:bundling-stacks': [] }, outdir });
    // cdk-nag runs at synthesis: an unacknowledged finding on these grants makes this throw.
    portal.app.synth();
    resources = wholeStack(portal.stateless).toJSON().Resources as Record<string, Resource>;
    userPoolId = Object.keys(Template.fromStack(portal.stateful).findResources('AWS::Cognito::UserPool'))[0]!;
  });

  afterAll(() => {
    if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
  });

  /** Every portal function by its name, with the statements of its role's policies. */
  function functions() {
    return Object.values(resources)
      .filter((r) => r.Type === 'AWS::Lambda::Function' && tagOf(r) !== undefined)
      .map((fn) => {
        const roleId = (fn.Properties!.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
        const statements = Object.values(resources)
          .filter((r) => r.Type === 'AWS::IAM::Policy')
          .filter((r) => (r.Properties!.Roles as { Ref: string }[]).some((role) => role.Ref === roleId))
          .flatMap((r) => r.Properties!.PolicyDocument.Statement as Statement[]);
        const cognito = statements.filter((s) => asList(s.Action).some((a) => a.startsWith('cognito-idp:')));
        return {
          name: tagOf(fn)!,
          environment: (fn.Properties!.Environment?.Variables ?? {}) as Record<string, unknown>,
          cognito,
        };
      });
  }

  it('grants each user-pool route exactly the operations of its manifest entry, on the portal pool only', () => {
    const withPool = ROUTES.filter((route) => route.uses.userPool?.length);
    expect(withPool.length).toBeGreaterThanOrEqual(10);
    const byName = new Map(functions().map((fn) => [fn.name, fn]));
    for (const route of withPool) {
      const fn = byName.get(route.id)!;
      expect(fn, route.id).toBeDefined();
      expect(fn.cognito, route.id).toHaveLength(1);
      const [statement] = fn.cognito;
      expect(statement!.Effect).toBe('Allow');
      expect(asList(statement!.Action).sort(), route.id).toEqual(
        (route.uses.userPool ?? []).map((operation) => `cognito-idp:${operation}`).sort(),
      );
      // One resource: the pool's ARN, exported by the stateful stack (never a wildcard).
      const resource = JSON.stringify(statement!.Resource);
      expect(resource, route.id).toContain(userPoolId);
      expect(resource, route.id).toContain('Arn');
      expect(resource, route.id).not.toContain('*');
      expect(Object.keys(fn.environment), route.id).toEqual(
        expect.arrayContaining([RUNTIME_ENV.userPoolId, RUNTIME_ENV.userPoolClientId]),
      );
    }
  });

  it('gives no other function any Cognito permission or the pool ids', () => {
    // The routes that declare the pool, and the consumers that do: the exports worker lists the suppliers' accounts as
    // the suppliers' administration does; the inbound-mail worker finds the account of an e-mail's sender (ListUsers
    // by e-mail). Their exact grants are checked in permissions.test.ts.
    const consumers = (Object.keys(QUEUES) as QueueKey[])
      .filter((key) => (QUEUES[key].consumerUses as FunctionUses).userPool?.length)
      .map((key) => `worker-${QUEUES[key].consumer}`);
    expect(consumers).toEqual(['worker-exports', 'worker-inbound-mail']);
    const withPool = new Set([
      ...ROUTES.filter((route) => route.uses.userPool?.length).map((route) => route.id),
      ...consumers,
    ]);
    const others = functions().filter((fn) => !withPool.has(fn.name));
    expect(others.map((fn) => fn.name)).toContain('listAuditEvents');
    for (const fn of others) {
      expect(fn.cognito, fn.name).toEqual([]);
      expect(fn.environment[RUNTIME_ENV.userPoolId], fn.name).toBeUndefined();
    }
  });
});
