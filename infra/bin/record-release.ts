import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { APP_VERSION } from '@portal/shared';
import { RELEASE_STAGES, RELEASES_DIR } from '../lib/releases.js';
import { synthesizeOffline } from '../lib/offline-synth.js';

/**
 * `npm run release:record`: keeps the templates of this release, stage by stage, in infra/releases/<version>/, as
 * what a stage deployed from this version runs. The deploy rehearsal (`npm run release:rehearse`) compares the next
 * version's synthesis with them (docs/deploying.md), so that a reviewer reads what its deploy would change and a
 * stateful resource is never replaced unseen.
 */
const releaseDir = path.join(RELEASES_DIR, APP_VERSION);

// Written beside the record and swapped in at the end: a synthesis that fails keeps the version's earlier record.
const next = `${releaseDir}.next`;
rmSync(next, { recursive: true, force: true });
for (const stage of RELEASE_STAGES) {
  const templates = synthesizeOffline(stage);
  const target = path.join(next, stage);
  mkdirSync(target, { recursive: true });
  for (const { file, body } of templates) writeFileSync(path.join(target, file), body);
  console.log(`Versión ${APP_VERSION}, etapa ${stage}: ${templates.length} plantillas`);
}
writeFileSync(
  path.join(next, 'README.md'),
  `# Templates of release ${APP_VERSION}\n\nWritten by \`npm run release:record\` (infra/bin/record-release.ts); the deploy rehearsal compares the next release's synthesis with them (docs/deploying.md).\n`,
);
rmSync(releaseDir, { recursive: true, force: true });
renameSync(next, releaseDir);
console.log(`Plantillas de la versión ${APP_VERSION} en ${releaseDir}`);
