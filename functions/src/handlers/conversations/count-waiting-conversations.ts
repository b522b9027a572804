import { conversationRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { conversationDeps } from '../../use-cases/conversations/conversations.factory.js';
import { countWaitingConversations } from '../../use-cases/conversations/count-waiting-conversations.js';

export const handler = httpHandler(conversationRoutes.countWaitingConversations, ({ caller }) =>
  countWaitingConversations(conversationDeps, caller),
);
