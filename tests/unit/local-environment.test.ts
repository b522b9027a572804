import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LOCAL_ENV_SUBSTITUTES,
  QUEUES,
  ROUTES,
  SCHEDULES,
  functionEnvironment,
  type FunctionKind,
  type FunctionUses,
  type QueueKey,
} from '@portal/shared';
import { ROOT_DIR, STAGE_NODE_FLAGS, loadLocalConfig } from '../../local/runtime/config.js';
import { localEnvironment, provisionedEnvironment } from '../../local/runtime/environment.js';

/**
 * The local stage runs every function in one process: its environment must hold what each function is given in
 * AWS (functionEnvironment, the same list CDK sets and tests/infra/permissions.test.ts checks), with the local
 * substitutes for what only AWS has (secrets inline, no CloudFront or SES configuration set).
 */
describe('the local stage environment', () => {
  const config = loadLocalConfig({ LOCAL_PORT_BASE: '7900', LOCAL_STAGE_DIR: '.local/env-test' });
  const environment = {
    ...localEnvironment({
      config,
      tableName: 'portal-local-table',
      documentsBucket: 'portal-local-documents',
      inboundMailBucket: 'portal-local-inboundmail',
      webOrigins: ['http://127.0.0.1:7900'],
      adminGroupName: 'portal-admins',
      sap: { credentials: { type: 'basic', username: 'u', password: 'p' }, companyCodes: {} },
      sunatCredentials: {},
      inherited: {},
    }),
    ...provisionedEnvironment({
      queueUrls: Object.fromEntries(Object.keys(QUEUES).map((key) => [key, `http://sqs/${key}`])) as Record<
        QueueKey,
        string
      >,
      userPoolId: 'local_pool',
      userPoolClientId: 'local-client',
    }),
  };

  const declared: { name: string; kind: FunctionKind; uses: FunctionUses }[] = [
    ...ROUTES.map((route) => ({ name: route.id, kind: 'api' as const, uses: route.uses })),
    ...Object.values(QUEUES).map((def) => ({ name: def.id, kind: 'worker' as const, uses: def.consumerUses })),
    ...Object.values(SCHEDULES).map((def) => ({ name: def.id, kind: 'job' as const, uses: def.uses })),
  ];

  it('gives every route, consumer and job what it reads in AWS, or its local substitute', () => {
    for (const { name, kind, uses } of declared) {
      for (const variable of functionEnvironment(kind, uses)) {
        const local = variable in LOCAL_ENV_SUBSTITUTES ? LOCAL_ENV_SUBSTITUTES[variable] : variable;
        if (local === null || local === undefined) continue;
        expect(environment[local], `${name}: ${local}`).toBeTruthy();
      }
    }
  });

  it('leaves unset what only AWS has: the handlers then skip the origin check and sign links to the S3 stand-in', () => {
    for (const [variable, substitute] of Object.entries(LOCAL_ENV_SUBSTITUTES)) {
      if (substitute === null) expect(environment[variable], variable).toBeUndefined();
    }
  });

  it("points the SDK at the stage's stand-ins, never at AWS", () => {
    for (const service of ['DYNAMODB', 'S3', 'SQS', 'SESV2', 'COGNITO_IDENTITY_PROVIDER']) {
      expect(environment[`AWS_ENDPOINT_URL_${service}`], service).toMatch(/^http:\/\/127\.0\.0\.1:79\d\d$/);
    }
  });
});

describe("the stage's process", () => {
  it("runs npm start with the Node flags the test and bench stages get, and they size V8's young generation", () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT_DIR, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const start = pkg.scripts.start!.split(/\s+/);
    // Through scripts/with-node.sh: the stage runs on the Node of engines.node (tests/unit/node-toolchain.test.ts).
    expect(start.slice(0, 3)).toEqual(['bash', 'scripts/with-node.sh', 'tsx']);
    for (const flag of STAGE_NODE_FLAGS) expect(start.slice(3, -1)).toContain(flag);
    // V8's default lets the new space grow to 32 MB on this 64-bit machine; with the flags, past it.
    const grown =
      'const kept = []; for (let i = 0; i < 3e6; i++) kept.push({ i }); process.stdout.write(String(' +
      "require('v8').getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size))";
    const young = execFileSync(process.execPath, [...STAGE_NODE_FLAGS, '-e', grown], { encoding: 'utf8' });
    expect(Number(young) / 2 ** 20).toBeGreaterThan(32);
  });
});
