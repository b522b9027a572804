import type { NotificationMessage, NotificationPreferencesBody } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { deliverNotification, type NotificationDeps } from './deliver-notification.js';
import { listNotifications } from './list-notifications.js';
import { markNotificationsAsRead } from './mark-notifications-as-read.js';
import { notificationPreferences } from './notification-preferences.js';
import { saveNotificationPreferences } from './save-notification-preferences.js';

/** The notifications' use cases bound to one set of ports, as the tests call them (worker and handlers import each). */
export function notificationCalls(deps: NotificationDeps) {
  return {
    deliver: (message: NotificationMessage) => deliverNotification(deps, message),
    list: (caller: Caller) => listNotifications(deps, caller),
    markAsRead: (caller: Caller, upTo: string | undefined) => markNotificationsAsRead(deps, caller, upTo),
    preferences: (caller: Caller) => notificationPreferences(deps, caller),
    savePreferences: (caller: Caller, body: NotificationPreferencesBody) =>
      saveNotificationPreferences(deps, caller, body),
  };
}
