import { cleanup, configure } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { loadRuntimeConfig } from '../config/runtime-config';
import { mockWebConfig } from '../../mock-plugin';
import { APP_ROUTES } from '../routing/routes';
import { createMockWorld } from './data';
import { createMockHandlers } from './handlers';

/**
 * Setup of the web-components vitest project (vitest.config.ts): the screens run in jsdom against the mock
 * provider's handlers, served by msw in Node (no service worker, no stage), without the 250 ms delay. Each test
 * starts from a fresh sample world, signed out.
 */

/** jsdom's origin: the app's config.json and the mock API are served there. */
const ORIGIN = window.location.origin;
export const TEST_CONFIG = mockWebConfig(ORIGIN);
/** The day the sample world is built for, so that counts and rows do not move with the calendar. */
export const TEST_TODAY = new Date('2026-11-20T15:00:00.000Z');

export const mockServer = setupServer();

// Screens are lazy chunks: the first one a test file opens takes about ten seconds to transform and import
// (Cloudscape's modules), the next ones a second or so; a busy machine takes several times longer.
configure({ asyncUtilTimeout: 30_000 });

function mockHandlers() {
  return [
    http.get(`${ORIGIN}/config.json`, () => HttpResponse.json(TEST_CONFIG)),
    ...createMockHandlers({ apiUrl: TEST_CONFIG.apiUrl, delayMs: 0, world: createMockWorld(TEST_TODAY) }),
  ];
}

// Cloudscape measures its containers and reads media queries, which jsdom does not implement.
class NoResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= NoResizeObserver as unknown as typeof ResizeObserver;
/** A media query's answer as jsdom would give it if it had one: `matches` as told, no change ever reported. */
export function staticMediaQuery(query: string, matches: boolean): MediaQueryList {
  return {
    matches,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  } as MediaQueryList;
}
window.matchMedia ??= (query: string) => staticMediaQuery(query, false);

beforeAll(async () => {
  mockServer.listen({ onUnhandledRequest: 'error' });
  mockServer.resetHandlers(...mockHandlers());
  await loadRuntimeConfig(`${ORIGIN}/config.json`);
});

beforeEach(() => {
  mockServer.resetHandlers(...mockHandlers());
  sessionStorage.clear();
  localStorage.clear();
});

/**
 * Every chunk the app imports on demand (the screens of routes.ts and the components under React.lazy). The files of
 * this project share their worker's modules (vitest.config.ts): an import still on its way when a file ends would
 * fail as its environment goes, and React.lazy would keep that failure for every later file of the worker.
 */
function settleLazyChunks(): Promise<unknown> {
  return Promise.allSettled([
    ...APP_ROUTES.map((route) => route.load()),
    import('@cloudscape-design/components/flashbar'),
    import('../layout/header/status-legend-dialog'),
    import('../chat/assistant-panel'),
    import('../pages/login/mock-sign-in'),
  ]);
}

afterEach(() => cleanup());
afterAll(async () => {
  await settleLazyChunks();
  mockServer.close();
});
