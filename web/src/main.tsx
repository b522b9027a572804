// First: zod's mode must be set before @portal/shared builds its schemas. Besides the stylesheets, it is the entry's
// only static import (zod alone, its own chunk): the entry's body, which sends config.json's request, runs as soon
// as the entry has loaded, not after React, the contract and Amplify have been evaluated (on a phone's CPU, most of
// a second; docs/web-performance.md). Everything else is imported dynamically below.
import './config/zod-jitless';
import '@cloudscape-design/global-styles/index.css';
import './layout/word-breaks.css';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

// config.json's request, before anything else runs (loadRuntimeConfig validates its answer): the one index.html
// preloads, which a plain same-origin fetch takes. The file is never cached (no-store on the local stage, no-cache
// in AWS: infra/lib/constructs/web.ts), so the default cache mode reads it fresh.
const configRequest = fetch('/config.json');
configRequest.catch(() => undefined); // reported by loadRuntimeConfig

async function showStartupError(): Promise<void> {
  // Before React and Cloudscape are up: plain, accessible markup.
  const alert = document.createElement('p');
  alert.setAttribute('role', 'alert');
  alert.style.cssText = 'font-family: sans-serif; margin: 3rem auto; max-width: 32rem; text-align: center;';
  alert.textContent = (await import('./messages')).messages.app.configError;
  container?.replaceChildren(alert);
}

async function start(): Promise<void> {
  // Configuration first: Amplify must be configured before any screen asks for the session. Its request went out
  // above; the app's code and the first screen's load meanwhile (on a slow network these are round trips one
  // after the other otherwise). Loading them renders nothing and calls nothing: the app renders below.
  const configured = import('./config/runtime-config').then((module) => module.loadRuntimeConfig(configRequest));
  const app = import('./app');
  app.catch(() => undefined); // reported by the await below, once the configuration is in
  // The route table is a small chunk of its own: the first screen's chunk starts loading beside the app's.
  void import('./routing/routes').then(
    (routes) => routes.preloadScreen(window.location.pathname),
    () => undefined, // the router loads the screen again, and reports a failure there
  );
  const amplify = import('./config/amplify');
  amplify.catch(() => undefined); // reported by the await below
  const config = await configured;
  // The mock provider (docs/web-mock.md) answers the API in the browser: it must listen before the first call.
  if (config.mock) await import('./mock/browser').then((module) => module.startMockProvider(config));
  (await amplify).configureAmplify(config);
  // AWS WAF's challenge starts solving now, beside the first screen, which never waits for it; a failed
  // load is tried again by the first API call, which reports it if it fails again.
  if (config.waf) {
    const { integrationUrl } = config.waf;
    import('./api/waf').then((waf) => waf.loadWafIntegration(integrationUrl)).catch(() => undefined);
  }
  // The guard's first request goes out now, before the app renders, so that the guard takes its answer (its module
  // comes with the app's code; rendering first could let the guard ask on its own, and the preload ask again).
  await import('./session/use-current-user').then(
    (session) => session.preloadCurrentUser(),
    () => undefined, // the guard loads it, and reports a failure there
  );
  // On the invoices screen, its first page goes out beside it (the level and companies are the ID token's).
  void Promise.all([import('./api/client'), import('./pages/invoices/invoices-ahead')])
    .then(async ([client, invoices]) => {
      const claims = await client.tokenClaims();
      if (claims) invoices.fetchInvoicesAhead(window.location, claims);
    })
    .catch(() => undefined); // the screen asks for its page itself
  // Amplify's dictionaries are only needed for texts Amplify itself produces: off the critical path.
  void import('./i18n/amplify-vocabulary').then((module) => module.setUpAmplifyVocabulary());
  (await app).renderApp(container!);
}

start().catch((error: unknown) => {
  console.error('No se pudo iniciar el portal', error);
  void showStartupError();
});
