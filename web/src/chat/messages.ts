import { counted, plural, type PluralForms } from '@portal/shared';
import { chatLauncherMessages } from './launcher-messages';

/** Everything the chat assistant says (spec §1: a Spanish know-how bot on every page). */
export const chatMessages = {
  ...chatLauncherMessages,
  subtitle: 'Resuelve tus dudas sobre el portal y tus comprobantes.',
  close: 'Cerrar el asistente',
  inputLabel: 'Escribe tu pregunta',
  placeholder: 'Por ejemplo: ¿en qué estado está la F001-123?',
  send: 'Enviar pregunta',
  conversationLabel: 'Conversación con el Asistente Know-How',
  you: 'Tú',
  assistant: 'Asistente',
  thinking: 'Consultando...',
  suggestionsLabel: 'Preguntas frecuentes',
  suggestions: ['¿Cómo cargo un XML?', '¿Cuándo me pagan?', '¿Qué significan los estados?'],
  help:
    'Puedo ayudarte con: cargar un XML, registrar un comprobante sin XML, el significado de los estados, ' +
    'quién aprueba los comprobantes, la recepción de correos y el restablecimiento de tu contraseña. ' +
    'También consulto tus comprobantes: escribe su número (por ejemplo F001-123), pregunta "¿cuándo me pagan?" ' +
    'o "¿cuántas facturas tengo pendientes?".',
  unknown:
    'No entendí tu pregunta. Prueba con el número de un comprobante (por ejemplo "¿en qué estado está la F001-123?"), ' +
    '"¿cuándo me pagan?" o escribe "ayuda" para ver todo lo que puedo responder.',
  howTo: {
    uploadXml:
      'Para cargar un comprobante electrónico entra a "Mis comprobantes" y pulsa "Cargar XML". Elige el archivo XML ' +
      'que emitiste a SUNAT (UBL 2.1): el portal lee sus datos, lo registra en estado "Debe revisar" y consulta su ' +
      'validez en SUNAT. Recibirás una notificación con cada cambio de estado.',
    withoutXml:
      'Si tu comprobante no tiene XML, entra a "Mis comprobantes" y pulsa "Nuevo comprobante". Completa la serie, el ' +
      'correlativo, el tipo, la sociedad, la moneda, el IGV, la fecha de emisión y el monto, y adjunta el PDF del ' +
      'comprobante: sin el PDF no se puede crear.',
    statuses: 'Los estados de un comprobante son:',
    approver:
      'Los gestores de cada sociedad revisan los comprobantes: completan las órdenes de compra, las HES o MIGO y el ' +
      'responsable, y luego los aprueban o rechazan. Solo se aprueba un comprobante en estado "Completado"; al ' +
      'aprobarlo se registra en SAP y se notifica al proveedor. Un rechazo también se notifica, con su motivo.',
    emails:
      'El portal te envía un correo con cada novedad de tus comprobantes (recepción, validación SUNAT, aprobación, ' +
      'rechazo, pago programado y pago). Si no los recibes, revisa tu carpeta de correo no deseado o pide al ' +
      'administrador del portal que active la recepción de correos de tu usuario. Las mismas novedades aparecen en ' +
      'la campana de notificaciones.',
    password:
      'Para restablecer tu contraseña, cierra sesión y en la pantalla de ingreso pulsa "¿Olvidaste tu contraseña?". ' +
      'Escribe tu correo y recibirás un código para crear una nueva. El personal de las sociedades ingresa con su ' +
      'cuenta corporativa y la restablece con su área de sistemas.',
  },
  invoice: {
    notFound: (number: string) =>
      `No encontré el comprobante ${number} entre tus comprobantes. Revisa la serie y el correlativo (por ejemplo F001-123).`,
    status: (document: string, status: string, meaning: string) =>
      `La ${document} está en estado "${status}": ${meaning}`,
    document: (type: string, number: string, party: string) => `${type.toLowerCase()} ${number} ${party}`,
    toClient: (client: string) => `para ${client}`,
    fromSupplier: (supplier: string) => `de ${supplier}`,
    amount: (amount: string) => `Monto: ${amount}.`,
    issued: (date: string) => `Fecha de emisión: ${date}.`,
    scheduled: (date: string) => `Fecha de pago programada: ${date}.`,
    paid: (date: string) => `Fecha de pago: ${date}.`,
    reason: (reason: string) => `Motivo: ${reason}`,
    several: (count: number, number: string) => `Encontré ${count} comprobantes con el número ${number}:`,
    open: (number: string) => `Ver ${number} en Mis comprobantes`,
    failed: 'No pude consultar tus comprobantes en este momento.',
  },
  count: {
    youHave: 'Tienes',
    thereAre: 'Hay',
    documents: (types: readonly string[], n: number) => {
      const names: Record<string, PluralForms> = {
        FACTURA: { one: 'factura', other: 'facturas' },
        BOLETA: { one: 'boleta', other: 'boletas' },
        NOTA_DE_CREDITO: { one: 'nota de crédito', other: 'notas de crédito' },
        NOTA_DE_DEBITO: { one: 'nota de débito', other: 'notas de débito' },
        RECIBO_POR_HONORARIOS: { one: 'recibo por honorarios', other: 'recibos por honorarios' },
      };
      const forms = (types.length === 1 ? names[types[0]!] : undefined) ?? {
        one: 'comprobante',
        other: 'comprobantes',
      };
      return plural(n, forms);
    },
    noneYou: (documents: string, qualifier: string) => `No tienes ${documents}${qualifier} por ahora.`,
    noneThere: (documents: string, qualifier: string) => `No hay ${documents}${qualifier} por ahora.`,
    inStatus: (who: string, n: number, documents: string, status: string) =>
      `${who} ${n} ${documents} en estado "${status}".`,
    total: (who: string, n: number, documents: string, qualifier: string) => `${who} ${n} ${documents}${qualifier}:`,
    statusLine: (status: string, n: number) => `${status}: ${n}`,
    open: { supplier: ' por cobrar', staff: ' por atender' },
    link: 'Verlos en Mis comprobantes',
    openNote: {
      supplier: 'Cuento los que aún no se pagan ni fueron rechazados.',
      staff: 'Cuento los que esperan completar datos o su aprobación.',
    },
  },
  payments: {
    intro: 'Estos son tus pagos:',
    none: 'Por ahora no tienes comprobantes aprobados ni con pago programado.',
    scheduledIntro: (count: number) =>
      `Tienes ${counted(count, { one: 'comprobante', other: 'comprobantes' })} con pago programado:`,
    scheduledItem: (number: string, amount: string, date: string) => `${number} por ${amount}: el ${date}.`,
    acceptedIntro: (count: number) =>
      `${counted(count, { one: 'comprobante aprobado espera', other: 'comprobantes aprobados esperan' })} la programación de su pago:`,
    acceptedItem: (number: string, amount: string) => `${number} por ${amount}.`,
    more: 'Hay más comprobantes: revísalos en "Mis comprobantes".',
    pendingReview:
      'Un comprobante se programa para pago después de ser aprobado; los que aún están en revisión no aparecen aquí.',
    open: 'Ir a Mis comprobantes',
  },
  /** "¿Cuándo me pagan la F001-123?" (docs/ap-payment.md). */
  paymentDate: {
    expected: (document: string, date: string) => `La fecha de pago estimada de la ${document} es el ${date}.`,
    moved: (due: string) => `Vence el ${due}; se paga el siguiente día de pago de la sociedad.`,
    scheduled: (document: string, date: string) => `El pago de la ${document} está programado para el ${date}.`,
    paid: (document: string, date: string) => `La ${document} se pagó el ${date}.`,
    paidWith: (document: string, date: string, paymentDocument: string, method: string) =>
      `La ${document} se pagó el ${date} (documento de pago ${paymentDocument}, ${method}).`,
    rejected: (document: string) => `La ${document} fue rechazada: no tiene un pago previsto.`,
    unknown: (document: string, status: string) =>
      `La ${document} aún no tiene una fecha de pago estimada (estado "${status}").`,
    status: (status: string, meaning: string) => `Estado: "${status}" (${meaning.replace(/\.$/, '').toLowerCase()}).`,
  },
} as const;
