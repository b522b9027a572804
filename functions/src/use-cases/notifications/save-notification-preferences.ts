import {
  BadRequestError,
  preferencesView,
  storedPreferencesOf,
  type NotificationPreferences,
  type NotificationPreferencesBody,
} from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { preferenceAudienceOf, type NotificationFeedDeps } from './notification-audiences.js';

/** Replaces the caller's own preferences (a kind left out is on again); a kind not of its audience is refused. */
export async function saveNotificationPreferences(
  deps: NotificationFeedDeps,
  caller: Caller,
  body: NotificationPreferencesBody,
): Promise<NotificationPreferences> {
  const audience = preferenceAudienceOf(caller);
  const stored = storedPreferencesOf(audience, body);
  if ('reason' in stored) throw new BadRequestError('ERROR_INVALID_PARAMETER', { ...stored });
  await deps.repository.savePreferences(caller.sub, stored, deps.clock());
  return { items: preferencesView(audience, stored) };
}
