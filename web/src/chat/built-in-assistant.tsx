import { Suspense, lazy, useCallback, useId, useMemo, useRef, useState } from 'react';
import Button, { type ButtonProps } from '@cloudscape-design/components/button';
import type { SessionUser } from '@portal/shared';
import type { Conversation, Turn } from './assistant-panel';
import { chatLauncherMessages } from './launcher-messages';

const text = chatLauncherMessages;

// The panel (the prompt input, the intent table, the answers) is its own chunk: every signed-in screen shows
// the launcher, few open it. Pointing at or focusing the launcher starts loading it.
const loadPanel = () => import('./assistant-panel');
const AssistantPanel = lazy(loadPanel);

function preloadPanel(): void {
  void loadPanel().catch(() => undefined);
}

/**
 * The portal's own assistant, used when no Dialogflow agent is configured: a floating launcher and a
 * panel (web/src/chat/assistant-panel.tsx). The conversation lives here, so closing the panel keeps it.
 */
export function BuiltInAssistant({ user }: { user: SessionUser }) {
  const titleId = useId();
  const panelId = useId();
  const [open, setOpen] = useState(false);
  const [question, setQuestion] = useState('');
  const [busy, setBusy] = useState(false);
  const [turns, setTurns] = useState<Turn[]>(() => [
    { id: 0, from: 'assistant', answer: { text: text.greeting(user.firstName) } },
  ]);
  const nextId = useRef(1);
  const launcher = useRef<ButtonProps.Ref>(null);
  const conversation = useMemo<Conversation>(
    () => ({ turns, setTurns, question, setQuestion, busy, setBusy, nextId }),
    [turns, question, busy],
  );

  const close = useCallback(() => {
    setOpen(false);
    // The launcher comes back when the panel goes: focus it once it is there.
    requestAnimationFrame(() => launcher.current?.focus());
  }, []);

  if (!open) {
    return (
      <div className="portal-chat__launcher" onPointerEnter={preloadPanel} onFocus={preloadPanel}>
        <Button
          ref={launcher}
          variant="primary"
          iconName="contact"
          ariaLabel={text.open}
          ariaExpanded={false}
          ariaControls={panelId}
          onClick={() => setOpen(true)}
        >
          {text.launcher}
        </Button>
      </div>
    );
  }

  return (
    <Suspense fallback={null}>
      <AssistantPanel user={user} conversation={conversation} panelId={panelId} titleId={titleId} onClose={close} />
    </Suspense>
  );
}
