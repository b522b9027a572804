import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** tests/durations.json: each file's seconds in a whole run (`npm run test:durations` writes it from the last one). */
export const DURATIONS_FILE = path.resolve(import.meta.dirname, '../durations.json');

function knownDurations(): Record<string, number> {
  return existsSync(DURATIONS_FILE) ? (JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, number>) : {};
}

/**
 * Orders each group's files longest first, whatever their project, by the durations of tests/durations.json: the
 * long files start first and the short ones fill the workers around them, so that the group ends with its workers
 * busy rather than one long file left alone at its end. Vitest's own order runs a group's projects one after
 * another and knows durations only from the machine's cache (none on a fresh clone). A file the list does not know
 * yet runs first.
 */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durations = knownDurations();
    const root = this.ctx.config.root;
    const seconds = (spec: TestSpecification) => durations[path.relative(root, spec.moduleId)] ?? Infinity;
    return [...(await super.sort(files))].sort(
      (a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || seconds(b) - seconds(a),
    );
  }
}
