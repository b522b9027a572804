import { documentClient, tableName } from '../adapters/dynamodb.js';
import { makeNotificationRepository } from '../repositories/notifications.js';
import { makeNotificationFeed } from './notifications.js';
import { clock } from '../adapters/clock.js';

/** The notification feed of the API handlers, wired to DynamoDB only: they send no e-mail. */
export const notificationFeed = makeNotificationFeed({
  repository: makeNotificationRepository(documentClient, tableName()),
  clock,
});
