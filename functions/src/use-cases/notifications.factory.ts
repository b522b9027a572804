import { RUNTIME_ENV } from '@portal/shared';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { sesMailer } from '../adapters/email.js';
import { makeNotificationRepository } from '../repositories/notifications.js';
import type { NotificationDeps } from './notifications/deliver-notification.js';
import { clock } from '../adapters/clock.js';

/** The notifications' adapters, DynamoDB and SES, built once per cold start (the notifications worker). */
export const notificationDeps: NotificationDeps = {
  repository: makeNotificationRepository(documentClient, tableName()),
  mailer: sesMailer,
  clock,
  portalUrl: process.env[RUNTIME_ENV.webOrigin]?.split(',')[0]?.trim() || null,
};
