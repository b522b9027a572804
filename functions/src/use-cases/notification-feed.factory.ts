import { clock } from '../adapters/clock.js';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { makeNotificationRepository } from '../repositories/notifications.js';
import type { NotificationFeedDeps } from './notifications/notification-audiences.js';

/** The notification feed's adapters for the API handlers, DynamoDB only: they send no e-mail. */
export const notificationFeedDeps: NotificationFeedDeps = {
  repository: makeNotificationRepository(documentClient, tableName()),
  clock,
};
