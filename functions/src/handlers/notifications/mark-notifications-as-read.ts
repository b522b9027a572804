import { notificationRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { notificationFeedDeps } from '../../use-cases/notification-feed.factory.js';
import { markNotificationsAsRead } from '../../use-cases/notifications/mark-notifications-as-read.js';

export const handler = httpHandler(notificationRoutes.markNotificationsAsRead, ({ caller, body }) =>
  markNotificationsAsRead(notificationFeedDeps, caller, body.upTo),
);
