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
  openPreferences: 'Preferencias de avisos',
  preferences: {
    title: 'Preferencias de avisos',
    description:
      'Elige qué avisos ves en tus notificaciones y cuáles te llegan por correo. Los avisos que requieren tu atención vienen activados.',
    listLabel: 'Avisos',
    feed: 'En notificaciones',
    email: 'Por correo',
    noEmail: 'No se envía por correo',
    save: 'Guardar',
    cancel: 'Cancelar',
    saved: 'Tus preferencias de avisos fueron guardadas.',
    loadError: 'No se pudieron cargar tus preferencias de avisos. Inténtalo nuevamente.',
  },
} as const;
