import { sideOf, type WaitingConversations } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import type { ConversationDeps } from './conversation-deps.js';

/**
 * The header's count: a supplier's invoices whose conversation waits on it (observed, or staff wrote last), over
 * its RUCs; staff's, invoices of their companies whose supplier wrote last. One read of a counter per RUC or
 * company (an administrator, who reaches every company: the group's companies).
 */
export async function countWaitingConversations(
  deps: Pick<ConversationDeps, 'conversations' | 'allCompanies'>,
  caller: Caller,
): Promise<WaitingConversations> {
  const owners =
    caller.level === 'ADMIN' && deps.allCompanies ? [...caller.taxIds, ...(await deps.allCompanies())] : caller.taxIds;
  const count = await deps.conversations.waitingCount(sideOf(caller.level), owners);
  return { count };
}
