import { notificationRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { notificationFeedDeps } from '../../use-cases/notification-feed.factory.js';
import { saveNotificationPreferences } from '../../use-cases/notifications/save-notification-preferences.js';

export const handler = httpHandler(notificationRoutes.putNotificationPreferences, ({ caller, body }) =>
  saveNotificationPreferences(notificationFeedDeps, caller, body),
);
