import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/browser.js';

/**
 * V8 without its optimizing compilers (Maglev, TurboFan): a journey's page lives a few seconds, too short for their
 * code to pay for its compilation; the renderers' background threads spent a third less (35 s to 22 s of CPU over
 * 32 journeys, docs/testing.md), their main threads the same. Not for the benchmarks' browser, which measures the
 * app as users run it (tests/support/browser.ts launchChromium).
 */
const JOURNEY_ARGS = ['--js-flags=--no-maglev --no-turbofan'];

/**
 * One Chromium for the whole e2e run, started before its first file and closed after its last: a test gets a fresh
 * context (no cookie, storage or cache of another), not a browser of its own, which cost a second of both cores per
 * journey.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`No se encontró Chromium en ${CHROMIUM_PATH}: ejecute tests/ensure-chromium.sh`);
  }
  const server = await chromium.launchServer({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, ...JOURNEY_ARGS],
    headless: true,
  });
  project.provide('browserWsEndpoint', server.wsEndpoint());
  return async () => {
    await server.close();
  };
}
