import type { Caller } from '../../http/caller.js';
import { listNotifications } from './list-notifications.js';
import type { NotificationFeedDeps } from './notification-audiences.js';

/** Marks as read everything up to now (or up to the moment given, never later than now). */
export async function markNotificationsAsRead(
  deps: NotificationFeedDeps,
  caller: Caller,
  upTo: string | undefined,
): Promise<{ updated: number }> {
  const now = deps.clock().toISOString();
  const mark = upTo && upTo < now ? new Date(upTo).toISOString() : now;
  const { items } = await listNotifications(deps, caller);
  await deps.repository.markRead(caller.sub, mark);
  return { updated: items.filter((item) => !item.isRead && item.registeredAt <= mark).length };
}
