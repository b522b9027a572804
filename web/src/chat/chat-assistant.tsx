import type { SessionUser } from '@portal/shared';
import { runtimeConfig } from '../config/runtime-config';
import { BuiltInAssistant } from './built-in-assistant';
import { DialogflowMessenger } from './dialogflow-messenger';
import './chat.css';

/**
 * The chat assistant of every signed-in screen (spec §1): the stage's Dialogflow CX agent when
 * /config.json names one, otherwise the portal's built-in assistant.
 */
export function ChatAssistant({ user }: { user: SessionUser }) {
  const agent = runtimeConfig().chat;
  return agent ? <DialogflowMessenger agent={agent} /> : <BuiltInAssistant user={user} />;
}
