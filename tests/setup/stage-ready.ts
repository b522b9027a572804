import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import type { LocalOutputs } from '../../local/runtime/outputs.js';
import { launchErrorFile } from './local-stage.js';

/**
 * First setup of every file on the shared stage: waits until the run's stage is ready (tests/setup/local-stage.ts
 * starts it while the files that need none run) and keeps its outputs for tests/support/stage.ts. A stage that failed
 * to start fails the file with the launch's reason.
 */
const dataDir = inject('localStageDir');
const outputsFile = path.join(dataDir, 'outputs.json');
const deadline = Date.now() + 300_000;
while (!existsSync(outputsFile)) {
  if (existsSync(launchErrorFile(dataDir))) {
    throw new Error(`La etapa local de las pruebas no arrancó: ${readFileSync(launchErrorFile(dataDir), 'utf8')}`);
  }
  if (Date.now() > deadline) throw new Error(`La etapa local de las pruebas no estuvo lista en 300 s (${dataDir})`);
  await new Promise((resolve) => setTimeout(resolve, 100));
}

const shared = globalThis as typeof globalThis & { portalStageOutputs?: LocalOutputs };
shared.portalStageOutputs = JSON.parse(readFileSync(outputsFile, 'utf8')) as LocalOutputs;
