import { NotificationMessage } from '@portal/shared';
import { observed } from '../observability/observed.js';
import { notificationDeps } from '../use-cases/notifications.factory.js';
import { deliverNotification } from '../use-cases/notifications/deliver-notification.js';
import { outgoing } from '../use-cases/outgoing.factory.js';
import { acknowledgingOutgoing } from './acknowledge.js';
import { sqsBatchHandler } from './sqs-batch.js';

/** Consumer of the notifications queue: feed items and e-mails for each event. */
export const handler = observed(
  acknowledgingOutgoing(
    'notifications',
    outgoing,
    sqsBatchHandler(NotificationMessage, async (message) => {
      await deliverNotification(notificationDeps, message);
    }),
  ),
);
