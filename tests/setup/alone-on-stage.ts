import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, inject } from 'vitest';
import { isAlive } from '../../local/stand-ins/types.js';

/**
 * Setup of the files that change what every file on the stage sees (they move the stage's clock, or send the daily
 * digest to the staff of every company): they run in the first group, when no other file uses the stage, and one at
 * a time: each holds the stage's lock directory from before its import until it ends. The unit and infra files
 * beside them never touch the stage.
 */
const lock = path.join(inject('localStageDir'), 'alone.lock');

for (;;) {
  try {
    await mkdir(lock);
    break;
  } catch {
    const pidFile = path.join(lock, 'pid');
    const owner = existsSync(pidFile) ? Number(await readFile(pidFile, 'utf8')) || 0 : 0;
    if (owner && !isAlive(owner)) await rm(lock, { recursive: true, force: true });
    else await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
await writeFile(path.join(lock, 'pid'), String(process.pid));

afterAll(async () => {
  await rm(lock, { recursive: true, force: true });
});
