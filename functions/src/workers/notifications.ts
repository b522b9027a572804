import { NotificationMessage } from '@portal/shared';
import { observed } from '../http/observed.js';
import { notifications } from '../use-cases/notifications.factory.js';
import { sqsBatchHandler } from './sqs-batch.js';

/** Consumer of the notifications queue: feed items and e-mails for each event. */
export const handler = observed(
  sqsBatchHandler(NotificationMessage, async (message) => {
    await notifications.deliver(message);
  }),
);
