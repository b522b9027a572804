import { notificationRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { notificationFeed } from '../../use-cases/notification-feed.factory.js';

export const handler = httpHandler(notificationRoutes.getNotificationPreferences, ({ caller }) =>
  notificationFeed.preferences(caller),
);
