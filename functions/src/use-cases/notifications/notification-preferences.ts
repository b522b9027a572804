import { preferencesView, type NotificationPreferences } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { preferenceAudienceOf, type NotificationFeedDeps } from './notification-audiences.js';

/** The caller's own notification preferences: every kind of its audience, on unless they turned it off. */
export async function notificationPreferences(
  deps: Pick<NotificationFeedDeps, 'repository'>,
  caller: Caller,
): Promise<NotificationPreferences> {
  return { items: preferencesView(preferenceAudienceOf(caller), await deps.repository.preferences(caller.sub)) };
}
