import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';
import type { WebConfig } from '@portal/shared';

/** The Vite mode that runs the web app on the mock provider: `vite --mode mock` (npm run start:web-mock). */
export const MOCK_MODE = 'mock';

/** Where the mock's API lives, on the dev server's own origin: msw answers it in the browser, Vite never sees it. */
const MOCK_API_PATH = '/mock-api';

/** The runtime configuration of the mock provider: no stage, no identity service, no chat, no WAF. */
export function mockWebConfig(origin: string): WebConfig {
  return {
    stage: 'mock',
    apiUrl: `${origin}${MOCK_API_PATH}`,
    region: 'us-east-1',
    userPoolId: 'us-east-1_mock',
    userPoolClientId: 'mock',
    cognitoEndpoint: null,
    oauth: null,
    corporateEmailDomains: [],
    chat: null,
    waf: null,
    intakeMailDomain: 'recepcion.grupo.example',
    mock: true,
  };
}

/**
 * The dev server in mock mode serves what a stage would beside the app: /config.json (with `mock: true`) and
 * msw's service worker, read from the installed msw so that it always matches the library's version (msw's own
 * postinstall, which would copy it, is disabled: package.json allowScripts).
 */
export function mockProvider(): Plugin {
  const workerFile = createRequire(import.meta.url).resolve('msw/mockServiceWorker.js');
  return {
    name: 'portal-mock-provider',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const path = request.url?.split('?')[0];
        if (path === '/config.json') {
          const origin = `http://${request.headers.host ?? 'localhost:5173'}`;
          response.setHeader('content-type', 'application/json; charset=utf-8');
          response.setHeader('cache-control', 'no-store');
          response.end(JSON.stringify(mockWebConfig(origin)));
          return;
        }
        if (path === '/mockServiceWorker.js') {
          readFile(workerFile)
            .then((script) => {
              response.setHeader('content-type', 'text/javascript; charset=utf-8');
              response.setHeader('cache-control', 'no-store');
              response.end(script);
            })
            .catch(next);
          return;
        }
        next();
      });
    },
  };
}
