import '@cloudscape-design/global-styles/index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureAmplify } from './config/amplify';
import { loadRuntimeConfig } from './config/runtime-config';
import { messages } from './messages';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');
const root = createRoot(container);

function showStartupError(): void {
  // Before React and Cloudscape are up: plain, accessible markup.
  const alert = document.createElement('p');
  alert.setAttribute('role', 'alert');
  alert.style.cssText = 'font-family: sans-serif; margin: 3rem auto; max-width: 32rem; text-align: center;';
  alert.textContent = messages.app.configError;
  container?.replaceChildren(alert);
}

async function start(): Promise<void> {
  // Configuration first: Amplify must be configured before any screen asks for the session.
  const config = await loadRuntimeConfig();
  configureAmplify(config);
  // Amplify's dictionaries are only needed for texts Amplify itself produces: off the critical path.
  void import('./i18n/amplify-vocabulary').then((module) => module.setUpAmplifyVocabulary());
  const { App } = await import('./app');
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

start().catch((error: unknown) => {
  console.error('No se pudo iniciar el portal', error);
  showStartupError();
});
