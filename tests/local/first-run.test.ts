import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchLocalStage } from '../../local/runtime/launch.js';
import { acquireSlot, releaseSlot } from '../setup/local-stage.js';

const STARTS = 3;
/**
 * One start's budget: about 15 s on an idle 2-core machine, a minute or more under this load beside the integration
 * files on a slower CI runner (most of it DynamoDB Local writing the demo seed). A start that takes longer fails with
 * its own message; the test's budget is the sum of its starts', so that the test never times out before a start does.
 */
const START_TIMEOUT_MS = 150_000;

/**
 * Busy loops, one per core, for as long as the test runs: the machine is as busy as a shared CI runner. At the
 * lowest priority, so that the other test files running beside this one in `npm test` are not starved.
 */
function startCpuLoad(): ChildProcess[] {
  return Array.from({ length: os.availableParallelism() }, () => {
    const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    if (child.pid) os.setPriority(child.pid, 19);
    return child;
  });
}

describe('npm start on a fresh data directory', () => {
  it(
    `starts ${STARTS} times in a row on a busy machine, every service's log there from the start`,
    async () => {
      // A stage of its own (a free slot of the test stages' pool: its own ports and data directory),
      // started fresh each time (launchLocalStage empties the directory).
      const slot = await acquireSlot({ extraStage: true });
      const load = startCpuLoad();
      try {
        for (let run = 1; run <= STARTS; run += 1) {
          const stage = await launchLocalStage({
            dataDir: slot.dataDir,
            portBase: slot.portBase,
            // A saturated libuv pool, as on a busy machine: asynchronous file opens wait their turn.
            env: { UV_THREADPOOL_SIZE: '1' },
            startTimeoutMs: START_TIMEOUT_MS,
          });
          try {
            for (const log of ['cognito.log', 'dynamodb.log']) {
              expect(statSync(path.join(slot.dataDir, 'logs', log)).isFile(), `${log} (start ${run})`).toBe(true);
            }
            const openapi = await fetch(`${stage.outputs.apiUrl}/openapi.json`);
            expect(openapi.status, `the API of start ${run}`).toBe(200);
            const signIn = await fetch(stage.outputs.cognitoEndpoint, {
              method: 'POST',
              headers: {
                'content-type': 'application/x-amz-json-1.1',
                'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth',
              },
              body: JSON.stringify({
                AuthFlow: 'USER_PASSWORD_AUTH',
                ClientId: stage.outputs.userPoolClientId,
                AuthParameters: { USERNAME: 'proveedor@demo.pe', PASSWORD: 'Demo#Portal2026' },
              }),
            });
            expect(signIn.status, `a demo supplier signs in after start ${run}`).toBe(200);
          } finally {
            await stage.stop();
          }
          const output = existsSync(stage.logFile) ? readFileSync(stage.logFile, 'utf8') : '';
          expect(output).not.toMatch(/ENOENT/);
        }
      } finally {
        for (const child of load) child.kill('SIGKILL');
        await releaseSlot(slot);
      }
    },
    // Each start and its stop (up to 20 s), and the slot.
    STARTS * (START_TIMEOUT_MS + 25_000) + 30_000,
  );
});
