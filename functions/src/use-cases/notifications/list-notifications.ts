import type { Notification } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { RECENT_LIMIT, audiencesOfCaller, type NotificationFeedDeps } from './notification-audiences.js';

/** The caller's recent notifications (of the kinds its preferences show), each marked read or not. */
export async function listNotifications(
  deps: Pick<NotificationFeedDeps, 'repository'>,
  caller: Caller,
): Promise<{ items: Notification[] }> {
  const { repository } = deps;
  const preferences = await repository.preferences(caller.sub);
  const [items, readUpTo] = await Promise.all([
    repository.recent(audiencesOfCaller(caller), RECENT_LIMIT, preferences),
    repository.readUpTo(caller.sub),
  ]);
  return { items: items.map((item) => ({ ...item, isRead: readUpTo !== null && item.registeredAt <= readUpTo })) };
}
