import * as z from 'zod/mini';
import { listOf } from '../schemas/common.js';
import { MarkAsReadBody, Notification } from '../schemas/notifications.js';
import { NotificationPreferences, NotificationPreferencesBody } from '../schemas/notification-preferences.js';
import { READS_TABLE } from '../access.js';
import { route, ALL_SIGNED_IN, type RouteDef } from './route.js';

/** The user's notifications. */
export const notificationRoutes = {
  listNotifications: route({
    id: 'listNotifications',
    method: 'GET',
    path: '/notifications',
    summary: 'Notificaciones recientes del usuario',
    roles: ALL_SIGNED_IN,
    request: {},
    response: listOf(Notification),
    uses: READS_TABLE,
    handler: 'notifications/list-notifications',
  }),
  markNotificationsAsRead: route({
    id: 'markNotificationsAsRead',
    method: 'POST',
    path: '/notifications/mark-as-read',
    summary: 'Marca como leídas las notificaciones hasta ahora',
    roles: ALL_SIGNED_IN,
    request: { body: MarkAsReadBody },
    response: z.object({ updated: z.int() }),
    uses: { table: 'write' },
    handler: 'notifications/mark-notifications-as-read',
  }),
  getNotificationPreferences: route({
    id: 'getNotificationPreferences',
    method: 'GET',
    path: '/notifications/preferences',
    summary: 'Qué avisos recibe el usuario en sus notificaciones y por correo',
    roles: ALL_SIGNED_IN,
    request: {},
    response: NotificationPreferences,
    uses: READS_TABLE,
    handler: 'notifications/get-notification-preferences',
  }),
  putNotificationPreferences: route({
    id: 'putNotificationPreferences',
    method: 'PUT',
    path: '/notifications/preferences',
    summary: 'Elige qué avisos recibe el usuario en sus notificaciones y por correo (los omitidos, activados)',
    roles: ALL_SIGNED_IN,
    request: { body: NotificationPreferencesBody },
    response: NotificationPreferences,
    uses: { table: 'write' },
    handler: 'notifications/put-notification-preferences',
  }),
} as const satisfies Record<string, RouteDef>;
