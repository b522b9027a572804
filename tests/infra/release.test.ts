import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthesizeOffline, type StageTemplate } from '../../infra/lib/offline-synth.js';
import { overBudget, statefulLosses, summaryOf, TEMPLATE_LIMITS } from '../../infra/lib/release-check.js';
import { readRelease, recordedReleases, RELEASE_STAGES } from '../../infra/lib/releases.js';

/**
 * What a deploy of this checkout does to a stage deployed from the previous recorded release, and whether every
 * template keeps room to grow: the rehearsal's checks (`npm run release:rehearse`) run on every test run.
 */
const previousRelease = recordedReleases().at(-1)!;

describe.each(RELEASE_STAGES)('stage %s against its previous release', (stage) => {
  let next: StageTemplate[];
  let previous: StageTemplate[];

  beforeAll(() => {
    next = synthesizeOffline(stage);
    previous = readRelease(previousRelease, stage, next);
  });

  it('keeps every template, nested stacks included, within 70 % of CloudFormation limits', () => {
    expect(overBudget(next)).toEqual([]);
  });

  it('replaces, deletes or moves out no table, bucket, user pool, queue, key or secret', () => {
    const losses = previous.flatMap((before) => {
      const after = next.find((template) => template.file === before.file);
      const { losses } = statefulLosses(before.stack, JSON.parse(before.body), after ? JSON.parse(after.body) : {});
      return losses.map((loss) => `${loss.stack}: ${loss.logicalId} (${loss.type}) ${loss.impact}`);
    });
    expect(losses).toEqual([]);
    // The stateful stack, which holds them, keeps every resource under its logical id and type.
    const typesOf = (templates: StageTemplate[]) => {
      const stateful = templates.find((template) => template.stack === `Portal-${stage}-Stateful`)!;
      const resources = JSON.parse(stateful.body).Resources as Record<string, { Type: string }>;
      return Object.fromEntries(Object.entries(resources).map(([id, resource]) => [id, resource.Type]));
    };
    expect(typesOf(next)).toMatchObject(typesOf(previous));
  });

  it('updates the API in place: no route, API, stage or authorizer is replaced or removed (new routes added)', () => {
    const stack = `Portal-${stage}-Stateless`;
    const [before, after] = [previous, next].map(
      (templates) => JSON.parse(templates.find((template) => template.stack === stack)!.body) as object,
    );
    const { diff } = statefulLosses(stack, before!, after!);
    const apiChanges: string[] = [];
    diff.resources.forEachDifference((logicalId, change) => {
      const type = change.oldResourceType ?? change.newResourceType ?? '';
      // A release may add routes (a new endpoint, created beside the others); any other change of these would
      // interrupt the callers of the ones already there.
      const added = type === 'AWS::ApiGatewayV2::Route' && change.isAddition;
      if (/^AWS::ApiGatewayV2::(Route|Api|Stage|Authorizer)$/.test(type) && change.isDifferent && !added) {
        apiChanges.push(`${logicalId} ${change.changeImpact}`);
      }
    });
    expect(apiChanges).toEqual([]);
    // An integration may be updated (pointed at its function's new copy) or created with a new route, never
    // replaced or removed (a later release may leave them all unchanged).
    const integrations = summaryOf(diff).filter((line) => line.includes('AWS::ApiGatewayV2::Integration'));
    expect(integrations.filter((line) => !/^se (actualizan|crean) /.test(line))).toEqual([]);
  });
});

describe('the rehearsal checks', () => {
  const table = {
    Type: 'AWS::DynamoDB::Table',
    DeletionPolicy: 'Retain',
    UpdateReplacePolicy: 'Retain',
    Properties: { KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }], BillingMode: 'PAY_PER_REQUEST' },
  };
  const logs = { Type: 'AWS::Logs::LogGroup', DeletionPolicy: 'Delete', Properties: { RetentionInDays: 30 } };
  const before = { Resources: { Table: table, Logs: logs, Topic: { Type: 'AWS::SNS::Topic' } } };
  const impactsOf = (next: object, accepted?: Set<string>) =>
    statefulLosses('Portal-x-Stateful', before, next, accepted).losses.map(
      (loss) => `${loss.logicalId} ${loss.impact}`,
    );

  it('fails a table whose key changes, a removed table and a table no longer retained', () => {
    const rekeyed = {
      ...table,
      Properties: { ...table.Properties, KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }] },
    };
    expect(impactsOf({ Resources: { ...before.Resources, Table: rekeyed } })).toEqual(['Table reemplazo']);
    expect(impactsOf({ Resources: { Logs: logs } })).toEqual(['Table sale de la pila']);
    expect(impactsOf({ Resources: { Table: { ...table, DeletionPolicy: undefined }, Logs: logs } })).toEqual([
      'Table pierde Retain',
    ]);
    const deletable = { Resources: { ...before.Resources, Table: { ...table, DeletionPolicy: 'Delete' } } };
    expect(statefulLosses('s', deletable, { Resources: { Logs: logs } }).losses.map((loss) => loss.impact)).toEqual([
      'eliminación',
    ]);
  });

  it('lets through what holds no data, a function log group, and what the reviewer accepted', () => {
    expect(impactsOf({ Resources: { Table: table } })).toEqual([]);
    const rekeyed = { ...table, Properties: { ...table.Properties, KeySchema: [] } };
    expect(impactsOf({ Resources: { Table: rekeyed, Logs: logs } }, new Set(['Table']))).toEqual([]);
  });

  it('names the stack of a template past 70 % of either limit', () => {
    const resources = (count: number) =>
      JSON.stringify({ Resources: Object.fromEntries([...Array(count).keys()].map((i) => [`R${i}`, { Type: 'x' }])) });
    expect(overBudget([{ stack: 'Portal-x-Stateless', body: resources(350) }])).toEqual([]);
    expect(overBudget([{ stack: 'Portal-x-Stateless', body: resources(351) }])).toEqual([
      `La pila Portal-x-Stateless pasa el 70 % de CloudFormation: 351 recursos (límite ${TEMPLATE_LIMITS.resources})`,
    ]);
    const large = JSON.stringify({ Resources: { R: { Type: 'x', Properties: { Text: 'a'.repeat(700_000) } } } });
    expect(overBudget([{ stack: 'Portal-x-Stateless/Api/InvoicesFunctions', body: large }])).toEqual([
      `La pila Portal-x-Stateless/Api/InvoicesFunctions pasa el 70 % de CloudFormation: ${large.length} bytes (límite ${TEMPLATE_LIMITS.bytes})`,
    ]);
  });
});

describe('the release records', () => {
  it('are read newest last by version number, and a version without a record is refused by name', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-releases-'));
    try {
      for (const version of ['1.0.9', '1.0.10', '0.9.0', '1.0.10.next', 'notas']) fs.mkdirSync(path.join(dir, version));
      expect(recordedReleases(dir)).toEqual(['0.9.0', '1.0.9', '1.0.10']);
      expect(() => readRelease('1.0.9', 'prod', [], dir)).toThrow(
        /La versión 1.0.9 no tiene plantillas de la etapa prod/,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
