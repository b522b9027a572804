import { notificationRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { notificationFeedDeps } from '../../use-cases/notification-feed.factory.js';
import { listNotifications } from '../../use-cases/notifications/list-notifications.js';

export const handler = httpHandler(notificationRoutes.listNotifications, ({ caller }) =>
  listNotifications(notificationFeedDeps, caller),
);
