import { notificationRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { notificationFeedDeps } from '../../use-cases/notification-feed.factory.js';
import { notificationPreferences } from '../../use-cases/notifications/notification-preferences.js';

export const handler = httpHandler(notificationRoutes.getNotificationPreferences, ({ caller }) =>
  notificationPreferences(notificationFeedDeps, caller),
);
