import { useEffect, useRef } from 'react';
import { chatLauncherMessages } from './launcher-messages';

/** Google's Dialogflow CX Messenger web component, loaded only when a stage configures an agent. */
const MESSENGER_SCRIPT = 'https://www.gstatic.com/dialogflow-console/fast/df-messenger/prod/v1/df-messenger.js';
const MESSENGER_THEME =
  'https://www.gstatic.com/dialogflow-console/fast/df-messenger/prod/v1/themes/df-messenger-default.css';

export interface DialogflowAgent {
  readonly projectId: string;
  readonly agentId: string;
  readonly region: string;
}

let loading: Promise<void> | null = null;

/** Adds the messenger's script and theme to the page once. */
function loadMessenger(): Promise<void> {
  loading ??= new Promise<void>((resolve, reject) => {
    const theme = document.createElement('link');
    theme.rel = 'stylesheet';
    theme.href = MESSENGER_THEME;
    document.head.appendChild(theme);
    const script = document.createElement('script');
    script.src = MESSENGER_SCRIPT;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      loading = null;
      reject(new Error('No se pudo cargar Dialogflow Messenger'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/**
 * The know-how bot of spec §1 as the configured Dialogflow CX agent: its own chat bubble (launcher
 * and panel), titled in Spanish, in the agent's region, without a limit on the query length.
 */
export function DialogflowMessenger({ agent }: { agent: DialogflowAgent }) {
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const container = host.current;
    if (!container) return;
    // Built imperatively: the element and its attributes are the messenger's, not React's.
    const messenger = document.createElement('df-messenger');
    messenger.setAttribute('project-id', agent.projectId);
    messenger.setAttribute('agent-id', agent.agentId);
    messenger.setAttribute('location', agent.region);
    messenger.setAttribute('language-code', 'es');
    messenger.setAttribute('max-query-length', '-1');
    const bubble = document.createElement('df-messenger-chat-bubble');
    bubble.setAttribute('chat-title', chatLauncherMessages.title);
    messenger.appendChild(bubble);
    container.appendChild(messenger);
    loadMessenger().catch((error: unknown) => console.warn(error));
    return () => messenger.remove();
  }, [agent.projectId, agent.agentId, agent.region]);

  return <div ref={host} className="portal-chat__dialogflow" data-testid="dialogflow-messenger" />;
}
