import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/browser.js';

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
    args: [...CHROMIUM_ARGS],
    headless: true,
  });
  project.provide('browserWsEndpoint', server.wsEndpoint());
  return async () => {
    await server.close();
  };
}
