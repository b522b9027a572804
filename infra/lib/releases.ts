import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StageTemplate } from './offline-synth.js';

/** Where `npm run release:record` keeps each release's templates: `<version>/<stage>/<file>`. */
export const RELEASES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../releases');

/** The stages a release is recorded and rehearsed for: the two configurations the product ships. */
export const RELEASE_STAGES = ['dev', 'prod'] as const;

/** The recorded releases, oldest first (by their numeric version). */
export function recordedReleases(dir = RELEASES_DIR): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => /^\d+\.\d+\.\d+$/.test(name))
    .sort((a, b) => {
      const [x, y] = [a, b].map((version) => version.split('.').map(Number));
      return x![0]! - y![0]! || x![1]! - y![1]! || x![2]! - y![2]!;
    });
}

/**
 * A stage's templates as release `version` recorded them, named as in `current` when a template of the same file is
 * there (the file name of a nested stack is derived from its construct path), else by the file's name.
 */
export function readRelease(
  version: string,
  stage: string,
  current: readonly StageTemplate[] = [],
  dir = RELEASES_DIR,
): StageTemplate[] {
  const stageDir = path.join(dir, version, stage);
  if (!fs.existsSync(stageDir))
    throw new Error(`La versión ${version} no tiene plantillas de la etapa ${stage}: ${stageDir}`);
  return fs
    .readdirSync(stageDir)
    .filter((file) => file.endsWith('.template.json'))
    .map((file) => ({
      file,
      stack:
        current.find((template) => template.file === file)?.stack ?? file.replace(/(\.nested)?\.template\.json$/, ''),
      body: fs.readFileSync(path.join(stageDir, file), 'utf8'),
    }));
}
