import { routes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { notifications } from '../../use-cases/notifications.factory.js';

export const handler = httpHandler(routes.listNotifications, ({ caller }) => notifications.list(caller));
