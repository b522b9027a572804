import { setupWorker } from 'msw/browser';
import type { WebConfig } from '@portal/shared';
import { createMockHandlers } from './handlers';

/** Where the dev server (web/mock-plugin.ts) serves msw's service worker. */
export const MOCK_WORKER_URL = '/mockServiceWorker.js';

/**
 * Starts the mock provider in the browser: msw's service worker answers the calls to `apiUrl` with the mock
 * handlers; everything else (the app's own files) passes through untouched.
 */
export async function startMockProvider(config: WebConfig): Promise<void> {
  const worker = setupWorker(...createMockHandlers({ apiUrl: config.apiUrl }));
  await worker.start({
    serviceWorker: { url: MOCK_WORKER_URL },
    onUnhandledRequest: 'bypass',
    quiet: true,
  });
  console.info('Portal de Proveedores: proveedor simulado activo (docs/web-mock.md).');
}
