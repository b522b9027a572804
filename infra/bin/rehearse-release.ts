import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { parseArgs, stripVTControlCharacters } from 'node:util';
import { formatDifferences, type TemplateDiff } from '@aws-cdk/cloudformation-diff';
import { APP_VERSION } from '@portal/shared';
import { synthesizeOffline } from '../lib/offline-synth.js';
import {
  budgetOf,
  overBudget,
  statefulLosses,
  summaryOf,
  TEMPLATE_LIMITS,
  type StatefulLoss,
} from '../lib/release-check.js';
import { readRelease, recordedReleases, RELEASE_STAGES } from '../lib/releases.js';

/**
 * `npm run release:rehearse`: what deploying this checkout would change on a stage deployed from the previous
 * release, without an AWS account. Each stage's synthesis is compared, template by template (nested stacks
 * included), with the templates `npm run release:record` kept for that release, and printed as `cdk diff` prints it
 * (the same library): a summary of each stack on the console, the whole diff in cdk.out/rehearsal/<stage>/. It fails when a stateful resource (table, bucket, user pool, queue, key, secret...) would be
 * replaced, deleted, left outside its stack or unprotected, and when a template passes 70 % of CloudFormation's
 * limits. `--accept=<logicalId>,...` lets through losses a reviewer chose (docs/deploying.md).
 */
const { values } = parseArgs({
  options: {
    against: { type: 'string' },
    stage: { type: 'string', multiple: true },
    accept: { type: 'string', default: '' },
    out: { type: 'string', default: 'cdk.out/rehearsal' },
  },
});
const releases = recordedReleases();
const against = values.against ?? releases.at(-1);
if (!against || !releases.includes(against)) {
  console.error(
    `No hay plantillas de la versión ${against ?? '(ninguna)'}: ${releases.join(', ') || 'ninguna'} registradas`,
  );
  process.exit(2);
}
const stages = values.stage?.length ? values.stage : [...RELEASE_STAGES];
const accepted = new Set(values.accept.split(',').filter(Boolean));

const losses: StatefulLoss[] = [];
const tooLarge: string[] = [];
for (const stage of stages) {
  const next = synthesizeOffline(stage);
  const previous = readRelease(against, stage, next);
  const outDir = path.join(values.out, stage);
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  console.log(`\n═══ Etapa ${stage}: de la versión ${against} a esta copia (${APP_VERSION}) ═══`);
  const files = [...new Set([...previous, ...next].map((template) => template.file))];
  for (const file of files) {
    const before = previous.find((template) => template.file === file);
    const after = next.find((template) => template.file === file);
    const stack = (after ?? before)!.stack;
    const state = !before ? ' (pila nueva)' : !after ? ' (pila que se elimina)' : '';
    const found = statefulLosses(
      stack,
      before ? (JSON.parse(before.body) as object) : {},
      after ? (JSON.parse(after.body) as object) : {},
      accepted,
    );
    console.log(`\n── ${stack}${state}`);
    if (found.diff.isEmpty) {
      console.log('   Sin cambios');
    } else {
      for (const line of summaryOf(found.diff)) console.log(`   ${line}`);
      const diffFile = path.join(outDir, file.replace(/\.template\.json$/, '.diff'));
      fs.writeFileSync(diffFile, formatted(found.diff));
      console.log(`   Diferencias completas: ${diffFile}`);
    }
    losses.push(...found.losses);
  }

  console.log(
    `\nEspacio de cada plantilla (límites: ${TEMPLATE_LIMITS.resources} recursos, ${TEMPLATE_LIMITS.bytes} bytes):`,
  );
  for (const budget of next.map(budgetOf)) {
    const resources = `${budget.resources} recursos (${percent(budget.resources / TEMPLATE_LIMITS.resources)})`;
    const bytes = `${budget.bytes} bytes (${percent(budget.bytes / TEMPLATE_LIMITS.bytes)})`;
    console.log(`  ${budget.stack.padEnd(60)} ${resources.padStart(22)} ${bytes.padStart(22)}`);
  }
  tooLarge.push(...overBudget(next).map((problem) => `${stage}: ${problem}`));
}

console.log('');
for (const loss of losses) {
  console.error(`✗ ${loss.stack}: ${loss.logicalId} (${loss.type}): ${loss.impact}`);
}
for (const problem of tooLarge) console.error(`✗ ${problem}`);
if (losses.length || tooLarge.length) {
  console.error(
    `\nEnsayo fallido: ${losses.length} recursos con estado en riesgo, ${tooLarge.length} plantillas sin espacio. ` +
      'Un reemplazo a propósito se acepta con --accept=<id lógico> tras leerlo (docs/deploying.md).',
  );
  process.exit(1);
}
console.log(
  `Ensayo correcto: ningún recurso con estado se reemplaza ni se elimina; cada plantilla bajo el 70 % de los límites.`,
);

/** The diff as `cdk diff` prints it, without colours. */
function formatted(diff: TemplateDiff): string {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  formatDifferences(Object.assign(sink, { columns: 160 }), diff);
  return stripVTControlCharacters(chunks.join(''));
}

function percent(share: number): string {
  return `${Math.round(share * 100)} %`;
}
