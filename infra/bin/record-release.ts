import { cpSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APP_VERSION } from '@portal/shared';
import { buildPortalApp } from '../lib/app.js';
import { ROOT_DIR } from '../local/config.js';

/**
 * `npm run release:record`: keeps the templates of this release, stage by stage, in infra/releases/<version>/, as
 * what a stage deployed from this version runs. The deploy rehearsal compares the next version's synthesis with them
 * (docs/deploying.md), so that a reviewer reads what its deploy would change and a stateful resource is never
 * replaced unseen. Synthesized as the infra tests do: offline, without bundling the functions (their code changes
 * at every deploy; the templates are what is reviewed).
 */
const STAGES = ['dev', 'prod'] as const;
const releaseDir = path.join(ROOT_DIR, 'infra/releases', APP_VERSION);

// Written beside the record and swapped in at the end: a synthesis that fails keeps the version's earlier record.
const next = `${releaseDir}.next`;
rmSync(next, { recursive: true, force: true });
for (const stage of STAGES) {
  const outdir = mkdtempSync(path.join(os.tmpdir(), `portal-release-${stage}-`));
  try {
    buildPortalApp({ context: { stage, 'aws:cdk:bundling-stacks': [] }, outdir, nag: false }).app.synth();
    const target = path.join(next, stage);
    mkdirSync(target, { recursive: true });
    const templates = readdirSync(outdir).filter((file) => file.endsWith('.template.json'));
    for (const file of templates) cpSync(path.join(outdir, file), path.join(target, file));
    console.log(`Versión ${APP_VERSION}, etapa ${stage}: ${templates.length} plantillas`);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
writeFileSync(
  path.join(next, 'README.md'),
  `# Templates of release ${APP_VERSION}\n\nWritten by \`npm run release:record\` (infra/bin/record-release.ts); the deploy rehearsal compares the next release's synthesis with them (docs/deploying.md).\n`,
);
rmSync(releaseDir, { recursive: true, force: true });
renameSync(next, releaseDir);
console.log(`Plantillas de la versión ${APP_VERSION} en ${releaseDir}`);
