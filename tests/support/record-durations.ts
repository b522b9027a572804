import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DURATIONS_FILE } from '../setup/sequencer.js';
import type { RunTimings } from './timing-reporter.js';

/**
 * `npm run test:durations`: writes tests/durations.json, each file's seconds in the last run (.local/test-timings.json,
 * written by the timing reporter), which the sequencer orders the next runs by. Run it after a whole `npm test`.
 */
const timings = JSON.parse(
  readFileSync(path.resolve(process.env.TEST_TIMINGS_FILE ?? '.local/test-timings.json'), 'utf8'),
) as RunTimings;
const durations = Object.fromEntries(
  timings.files
    .map((file) => [file.file, Math.round((file.endedAt - file.queuedAt) * 10) / 10] as const)
    .sort(([a], [b]) => a.localeCompare(b)),
);
writeFileSync(DURATIONS_FILE, `${JSON.stringify(durations, null, 2)}\n`);
console.log(`${Object.keys(durations).length} archivos en ${path.relative(process.cwd(), DURATIONS_FILE)}`);
