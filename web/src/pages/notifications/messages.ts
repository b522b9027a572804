import { CLIENT_MESSAGES } from '@portal/shared';

/** What the notifications feed says, in the header's panel and on its own page (spec §2, §8). */
export const notificationMessages = {
  empty: 'No tienes notificaciones recientes.',
  loadError: CLIENT_MESSAGES.notificationsLoad,
  title: 'Notificaciones',
  description: 'Los avisos sobre tus comprobantes, del más reciente al más antiguo.',
  tableLabel: 'Notificaciones',
  loading: 'Cargando notificaciones...',
  refresh: 'Actualizar notificaciones',
  markAllAsRead: 'Marcar todas como leídas',
  markedAsRead: 'Tus notificaciones fueron marcadas como leídas.',
  unreadCounter: (unread: number, total: number) => `(${unread} sin leer de ${total})`,
  columns: {
    date: 'Fecha',
    message: 'Notificación',
    state: 'Estado',
    invoice: 'Comprobante',
  },
  read: 'Leída',
  unread: 'Sin leer',
  openInvoice: (invoice: string) => `Ver comprobante ${invoice}`,
  noInvoice: '—',
} as const;
