import { counted, formatCount, type InvoiceStatus } from '@portal/shared';

/** What the header of every signed-in screen says (spec §2 Header). */
export const headerMessages = {
  search: {
    label: 'Buscar en el portal',
    placeholderStaff: 'Buscar comprobantes o proveedores',
    placeholderSupplier: 'Buscar comprobantes por número, RUC o razón social',
    /** The last option, and Enter: the invoices list filtered by the text. */
    allResults: (text: string) => `Ver todos los resultados de "${text}"`,
    hintStaff: 'Escribe un número de comprobante, un RUC o una razón social.',
    hintSupplier: 'Escribe el número de un comprobante, por ejemplo F001-123.',
    invoicesGroup: 'Comprobantes',
    invoicesFound: (count: number) =>
      counted(count, { one: 'comprobante encontrado', other: 'comprobantes encontrados' }),
    /** More match than the dropdown shows: the list behind «Ver todos» has the rest. */
    newestInvoices: (count: number) => `Se muestran los ${formatCount(count)} comprobantes más recientes`,
    noInvoices: 'No se encontraron comprobantes.',
    suppliersFound: (count: number) =>
      counted(count, { one: 'proveedor encontrado', other: 'proveedores encontrados' }),
    suppliersGroup: 'Proveedores',
    supplierDescription: (ruc: string) => `RUC ${ruc}`,
    minLength: 'Escribe al menos 2 caracteres para buscar proveedores.',
    loadingStaff: 'Buscando comprobantes y proveedores...',
    loadingSupplier: 'Buscando comprobantes...',
    noSuppliers: 'No se encontraron proveedores.',
    invoicesError: 'No se pudo buscar comprobantes. Inténtalo nuevamente.',
    suppliersError: 'No se pudo buscar proveedores. Inténtalo nuevamente.',
    retry: 'Reintentar',
    clear: 'Borrar búsqueda',
    open: 'Abrir búsqueda',
    close: 'Cerrar búsqueda',
  },
  notifications: {
    label: 'Notificaciones',
    text: (unread: number) => (unread > 0 ? `Notificaciones (${unread})` : 'Notificaciones'),
    ariaLabel: (unread: number) =>
      unread === 0 ? 'Notificaciones, ninguna sin leer' : `Notificaciones, ${formatCount(unread)} sin leer`,
    title: 'Notificaciones recientes',
    unread: (unread: number) => (unread === 0 ? 'Sin notificaciones nuevas' : `${formatCount(unread)} sin leer`),
    loading: 'Cargando notificaciones...',
    newBadge: 'Nueva',
    markAsRead: 'Marcar como leídas',
    seeAll: 'Ver todas las notificaciones',
  },
  /** Conversations of invoices waiting on the user's answer. */
  conversations: {
    text: (count: number) => (count > 0 ? `Mensajes (${count})` : 'Mensajes'),
    title: 'Conversaciones de comprobantes que esperan su respuesta',
    ariaLabel: (count: number) =>
      count === 0
        ? 'Mensajes, ninguna conversación espera su respuesta'
        : `Mensajes, ${counted(count, { one: 'conversación espera', other: 'conversaciones esperan' })} su respuesta`,
  },
  legend: {
    button: 'Leyenda de estados',
    title: 'Leyenda de estados',
    description: 'Qué significa cada estado de un comprobante en el portal.',
    listLabel: 'Estados de los comprobantes',
    /** What each status of spec §4 means for the people who read it (the chat assistant says the same). */
    meanings: {
      PENDING: 'Faltan completar datos del comprobante: órdenes de compra, HES o MIGO y responsable.',
      COMPLETED: 'Los datos están completos; el comprobante espera la aprobación de la sociedad.',
      ACCEPTED: 'La sociedad aprobó el comprobante; espera la programación del pago.',
      REJECTED: 'La sociedad rechazó el comprobante; el motivo figura en su historial.',
      SCHEDULED: 'El pago tiene una fecha programada.',
      PAID: 'El pago fue realizado.',
    } satisfies Record<InvoiceStatus, string>,
  },
} as const;
