import { counted, formatErrorMessage, plural, type ErrorCode } from '@portal/shared';
import { invoicesMessages } from '../messages';
import { paymentMessages } from '../payment-messages';
import { reviewFormMessages, suggestionMessages } from './review-messages';

const ATTEMPTS = { one: 'intento', other: 'intentos' };

/** The catalogue's message for a code, without a transaction id: for rules the form checks itself. */
const catalogue = (code: ErrorCode, parameters: Record<string, unknown> = {}) => formatErrorMessage(code, parameters);

/**
 * Every text of the invoice detail/edit sidebar (spec §2 'Edit/detail sidebar'). Labels of statuses,
 * types and operation types come from the shared domain module; rule messages from the catalogue.
 */
export const detailMessages = {
  loading: 'Cargando detalle...',
  loadFailed: 'No se pudo cargar el detalle del comprobante.',
  retry: 'Reintentar',
  close: 'Cerrar',

  actions: {
    label: 'Acciones del comprobante',
    edit: 'Completar datos',
    editAgain: 'Editar datos',
    approve: 'Aprobar',
    reject: 'Rechazar',
    history: 'Historial',
    retrySap: 'Reintentar contabilización en SAP',
    requestSunat: 'Volver a consultar SUNAT',
  },

  sections: {
    general: 'Datos generales',
    review: 'Datos de revisión',
    amounts: 'Importes y fechas',
    documents: 'Documentos de conformidad',
    files: 'Archivos',
    sap: 'SAP',
  },

  fields: {
    number: 'N° de comprobante',
    type: 'Tipo',
    certStatus: 'Estado Sunat',
    sunatDetail: 'Detalle Sunat',
    status: 'Estado',
    observation: 'Observación',
    retry: 'Reenvío del proveedor',
    client: 'Cliente',
    supplier: 'Proveedor',
    operationType: 'Tipo de operación',
    responsible: 'Responsable',
    office: 'Oficina',
    location: 'Ubicación',
    amount: 'Monto total',
    taxAmount: 'IGV',
    netAmount: 'Monto sin IGV',
    issuedAt: 'Fecha de emisión',
    scheduledAt: 'Fecha programada de pago',
    paidAt: 'Fecha de pago',
    purchaseOrders: 'Órdenes de compra (OC)',
    serviceSheets: 'Hojas de entrada de servicio (HES)',
    materialDocs: 'Documentos de material (MIGO)',
    sapDocument: 'Documento SAP (MIRO)',
    notes: 'Notas',
  },

  values: {
    none: '—',
    supplier: (name: string, ruc: string) => `${name} (RUC ${ruc})`,
    client: (name: string, ruc: string) => `${name} (RUC ${ruc})`,
    sunatDetail: (estadoRuc: string | null, condDomiRuc: string | null) =>
      [estadoRuc && `Contribuyente ${estadoRuc.toLowerCase()}`, condDomiRuc && `domicilio ${condDomiRuc.toLowerCase()}`]
        .filter(Boolean)
        .join(', '),
    sapDocument: (number: string, fiscalYear: string) => `${number} (ejercicio ${fiscalYear})`,
    miroPending: 'Solicitud MIRO enviada a SAP; en espera del número de documento.',
    retryAllowed: 'Permitido: el proveedor puede volver a enviar el comprobante.',
  },

  /**
   * What the sidebar opens on, above everything else: the status, the amounts, when it is paid and, for a rejected or
   * observed invoice, why and what to do next, said to the party who does it.
   */
  essentials: {
    label: 'Resumen del comprobante',
    status: 'Estado',
    observed: 'Observada',
    amount: 'Monto total',
    amountToPay: 'Monto a pagar',
    netToPay: 'Neto a pagar',
    payment: 'Pago',
    conformity: 'Conformidad SUNAT',
    paidOn: (date: string) => `Pagado el ${date}`,
    scheduledFor: (date: string) => `Programado para el ${date}`,
    expected: (date: string) => `${date} (estimada)`,
    overdue: paymentMessages.overdue,
    overdueHint: paymentMessages.overdueHint,
    noPayment: 'Sin pago previsto',
    rejectedNoPayment: 'Sin pago previsto: el comprobante fue rechazado',
    rejectedHeader: 'Comprobante rechazado',
    observedHeader: 'Comprobante observado',
    reason: (reason: string) => `Motivo: ${reason}`,
    noReason: 'No se registró el motivo.',
    next: {
      supplierRetry:
        'Qué hacer: corrija lo indicado y vuelva a enviar el mismo comprobante con «Cargar XML»; si tiene dudas, escriba en «Mensajes».',
      supplierFinal:
        'Qué hacer: este comprobante no se puede volver a enviar. Si corresponde facturar de nuevo, emita un comprobante nuevo; si tiene dudas, escriba en «Mensajes».',
      staffRetry: 'El proveedor puede volver a enviar el mismo comprobante corregido.',
      staffFinal: 'El proveedor no puede volver a enviar este comprobante.',
      supplierObserved: 'Qué hacer: responda en «Mensajes» con lo que se le pide, con sus adjuntos si hacen falta.',
      staffObserved: 'Cuando el proveedor responda en «Mensajes», quite la observación.',
    },
  },

  /** What the 'Pago' section says of its dates and, collapsed, of the SPOT (D. Leg. 940), to the party it concerns. */
  payment: {
    detractionRules: 'Cómo funciona la detracción (SPOT)',
    detractionStaff:
      'La sociedad deposita la detracción en soles en la cuenta de detracciones del proveedor en el Banco de la Nación (D. Leg. 940) y le paga el neto. La constancia del depósito sustenta el crédito fiscal del IGV de este comprobante.',
    detractionSupplier:
      'Su cliente deposita la detracción en soles en su cuenta de detracciones del Banco de la Nación (D. Leg. 940) y le paga a usted el neto. El monto depositado sigue siendo suyo: queda en esa cuenta, con la que usted paga sus tributos.',
  },

  files: {
    xml: 'XML del comprobante',
    pdf: 'PDF del comprobante',
    cdr: 'Constancia de recepción (CDR)',
    attachment: (index: number) => `Adjunto ${index + 1}`,
    none: 'El comprobante no tiene archivos.',
    openLabel: (label: string) => `${label} (se abre en una ventana nueva)`,
    downloadLabel: (label: string) => `Descargar ${label}`,
  },

  /** Why the review data cannot be changed (spec §4), shown instead of the edit button. */
  notEditable: {
    certPending: 'Podrá completar los datos cuando SUNAT confirme la validez del comprobante (vea «Estado Sunat»).',
    certInvalid: catalogue('ERROR_UPDATE_INVOICE_WITH_INVALID_CERTIFICATION_STATUS'),
    status: catalogue('ERROR_UPDATE_INVOICE_NOT_EDITABLE'),
    role: 'Solo los gestores y administradores pueden completar, aprobar o rechazar comprobantes.',
  },

  form: reviewFormMessages,

  suggestions: suggestionMessages,

  /**
   * What the XML says beyond the total (invoice.breakdown; docs/ap-documents.md): taxes by scheme, discounts,
   * charges, anticipos, a transferencia gratuita, the SUNAT operation type and, on a recibo por honorarios,
   * what its retención de 4ta categoría means. Amounts come formatted (formatMoney).
   */
  breakdown: {
    title: 'Desglose del comprobante',
    description: 'Según el XML del comprobante.',
    operationType: 'Tipo de operación SUNAT',
    operationTypeValue: (code: string, label: string) => `${code} · ${label}`,
    saleValue: 'Valor de venta',
    igv: 'IGV',
    isc: 'ISC',
    icbper: 'ICBPER (bolsas de plástico)',
    otherTaxes: 'Otros tributos',
    allowances: 'Descuentos',
    charges: 'Cargos',
    prepaid: 'Anticipos',
    prepayment: (documentId: string | null, amount: string) => (documentId ? `${documentId}: ${amount}` : amount),
    item: (label: string, amount: string) => `${label}: ${amount}`,
    total: 'Importe total',
    freeOfCharge: invoicesMessages.freeOfCharge,
    freeOfChargeDetail:
      'Los bienes o servicios de este comprobante se entregan gratuitamente: se registra, pero no hay pago que esperar.',
    freeOfChargeValue: 'Valor referencial (gratuito)',
    gross: 'Honorarios',
    withholding: 'Retención de 4ta categoría (8 %)',
    net: 'Neto a pagar',
    honorarios: {
      MISSING: (expected: string) =>
        `El recibo supera S/ 1,500.00 y no indica la retención de 4ta categoría: corresponde retener ${expected} (8 %), salvo que el emisor tenga constancia de suspensión de retenciones vigente.`,
      NOT_APPLICABLE: (stated: string) =>
        `El recibo no supera S/ 1,500.00: no corresponde la retención de 4ta categoría que indica (${stated}).`,
      WRONG_AMOUNT: (stated: string, expected: string) =>
        `La retención de 4ta categoría indicada (${stated}) no es el 8 % de los honorarios (${expected}).`,
      FOREIGN_CURRENCY: (expected: string) =>
        `Recibo en dólares sin retención de 4ta categoría: corresponde retener ${expected} (8 %) si supera S/ 1,500.00 al tipo de cambio, salvo constancia de suspensión de retenciones.`,
    },
  },

  /** The SAP posting (MIRO) of an approved invoice, as GET …/invoices/… tells it (sapPosting). */
  sapPosting: {
    label: 'Contabilización',
    states: {
      QUEUED: 'En cola',
      SENDING: 'Enviando a SAP',
      RETRYING: 'Reintentando',
      LATE: 'Atrasado',
      FAILED: 'Fallido',
      POSTED: 'Contabilizado',
    },
    attempt: (attempt: number, max: number, next: string | null) =>
      `Intento ${attempt} de ${max}${next ? `; próximo intento a las ${next}` : ''}.`,
    lateNote: 'La contabilización está demorando más de lo normal.',
    reason: 'Motivo',
    failedNote: (attempts: number) =>
      `SAP no registró el comprobante tras ${counted(attempts, ATTEMPTS)}. Un administrador puede reintentarlo.`,
    retrySuccess: 'Se reintentará la contabilización del comprobante en SAP.',
    /** The warning at the top of the sidebar while the posting is late or failing, and once it failed. */
    alert: {
      retryingHeader: 'SAP no registró el comprobante',
      retrying: (attempt: number, max: number, next: string | null) => {
        const left = max - attempt;
        const when = next ? `El próximo intento será a las ${next} (hora de Lima)` : 'El portal volverá a intentarlo';
        return `Falló el intento ${attempt} de ${max} de contabilizarlo en SAP. ${when}; ${`${plural(left, { one: 'queda', other: 'quedan' })} ${counted(left, ATTEMPTS)}`}. Si el último también falla, un administrador podrá reintentar la contabilización.`;
      },
      sendingAgain: (attempt: number, max: number) =>
        `Intento ${attempt} de ${max} de contabilizarlo en SAP en curso. Si el último también falla, un administrador podrá reintentar la contabilización.`,
      lateHeader: 'La contabilización en SAP está demorando',
      late: 'SAP aún no registra el comprobante. El portal sigue intentándolo; si el último intento falla, un administrador podrá reintentar la contabilización.',
      failedHeader: 'La contabilización en SAP falló',
      failed: (attempts: number) => `SAP no registró el comprobante tras ${counted(attempts, ATTEMPTS)}.`,
      failedAdmin: 'Corrija la causa y use «Reintentar contabilización en SAP».',
      failedOthers: 'Un administrador puede reintentar la contabilización.',
      reason: (reason: string) => `Motivo: ${reason}`,
    },
  },

  /** An invoice waiting for SUNAT (certStatus PENDING), or refused by it, as GET …/invoices/… tells it (sunatCheck). */
  /** The CDR the supplier sent: evidence beside SUNAT's check, never instead of it. */
  cdr: {
    label: 'Constancia de recepción (CDR)',
    evidence: (verdict: string, code: string, date: string) =>
      `${verdict} (código ${code}), según la constancia que envió el proveedor, emitida el ${date}.`,
    noVerdict: (code: string, date: string) =>
      `Código ${code}, según la constancia que envió el proveedor, emitida el ${date}.`,
    notice: 'La validez la determina la consulta a SUNAT, no la constancia.',
    observations: (count: number) => `${counted(count, { one: 'observación', other: 'observaciones' })} de SUNAT:`,
    contradictionHeader: 'La constancia de recepción no concuerda',
  },

  sunat: {
    waiting: 'Esperando la respuesta de SUNAT.',
    waitingSince: (since: string) => `Esperando la respuesta de SUNAT desde el ${since} (hora de Lima).`,
    nextCheck: (at: string) => `Si no llega, el portal volverá a consultar a SUNAT a las ${at} (hora de Lima).`,
    nextCheckSoon: 'Si no llega, el portal volverá a consultar a SUNAT en unos instantes.',
    unavailable: (at: string) => `SUNAT no respondió la última consulta (${at}); el portal seguirá intentándolo.`,
    requestedBy: (who: string, at: string) => `Nueva consulta solicitada por ${who} el ${at}.`,
    invalidHint:
      'Si el comprobante se emitió hace poco, es posible que SUNAT aún no lo registre: puede volver a consultar SUNAT.',
    requested: 'Se volvió a consultar SUNAT. El estado Sunat se actualizará en cuanto SUNAT responda.',
  },

  approve: {
    header: 'Aprobar comprobante',
    question: (number: string) => `¿Desea aprobar el comprobante ${number}?`,
    consequence:
      'Se enviará la solicitud de MIRO a SAP y se notificará al proveedor. Esta acción no se puede deshacer.',
    confirm: 'Aprobar',
    success: 'El comprobante ha sido aprobado. Se ha notificado al proveedor.',
  },

  reject: {
    header: 'Rechazar comprobante',
    intro: (number: string) => `El comprobante ${number} será rechazado y se notificará al proveedor.`,
    reason: 'Motivo de rechazo',
    reasonRequired: catalogue('ERROR_DISAPPROVE_WITHOUT_REASON'),
    allowRetry: 'Permitir reintentar: el proveedor podrá volver a enviar el mismo comprobante',
    confirm: 'Rechazar',
    success: 'El comprobante ha sido rechazado. Se ha notificado al proveedor.',
  },

  /** A note and its original. */
  notes: {
    original: 'Comprobante que modifica',
    originalLabel: (type: string, number: string) => `${type} ${number}`,
    notInPortal: (number: string) => `${number} (no registrado en el portal)`,
    notInPortalHeader: 'Comprobante original fuera del portal',
    notInPortalAlert: (number: string) =>
      `El comprobante original ${number} no está en el portal (se emitió antes de que existiera). Al completar la nota, ingrese la orden de compra que ajusta; se enlazará si el original llega después.`,
    reason: 'Motivo de la nota (SUNAT)',
    reasonValue: (code: string, label: string, description: string | null) =>
      `${code} · ${label}${description ? ` — ${description}` : ''}`,
    section: 'Notas de crédito y débito',
    amountToPay: 'Monto a pagar',
    amountToPayHint: 'Monto total − notas de crédito aceptadas + notas de débito aceptadas.',
    credited: 'Notas de crédito aceptadas',
    debited: 'Notas de débito aceptadas',
    linkedNote: (type: string, number: string) => `${type} ${number}`,
    linkedNoteDetail: (status: string, amount: string) => `${status} · ${amount}`,
    adjustment:
      'Una nota se revisa como ajuste de su comprobante original: lleva su tipo de operación y sus órdenes de compra, sin HES ni MIGO ni cuadre de montos.',
    fromOriginal: (number: string) => `Del comprobante original ${number}`,
  },

  /** The RUC risk gate: SUNAT does not report the supplier ACTIVO and HABIDO. */
  rucRisk: {
    header: 'El RUC del proveedor no está ACTIVO y HABIDO',
    body: (risk: string) =>
      `SUNAT informa: ${risk}. Un gestor no puede aprobar este comprobante; un administrador puede aprobarlo indicando el motivo.`,
    overridden: (by: string, at: string, reason: string) =>
      `Aprobado con excepción por ${by} el ${at} (hora de Lima). Motivo: ${reason}`,
    overrideLabel: 'Excepción de RUC',
    approve: 'Aprobar con excepción',
    modalHeader: 'Aprobar pese al estado del RUC',
    question: (number: string, risk: string) =>
      `SUNAT informa ${risk} para el proveedor del comprobante ${number}. ¿Desea aprobarlo de todos modos?`,
    consequence:
      'Se enviará la solicitud de MIRO a SAP y se notificará al proveedor. El motivo quedará en el historial del comprobante.',
    reason: 'Motivo de la excepción',
    reasonRequired: catalogue('ERROR_RUC_RISK_OVERRIDE_WITHOUT_REASON'),
    confirm: 'Aprobar con excepción',
  },

  history: {
    header: 'Historial',
    description: (number: string) =>
      `Cada cambio del comprobante ${number}, del más antiguo al más reciente: quién lo hizo, cuándo, desde qué llamada y qué cambió.`,
    tableLabel: (number: string) => `Registro de cambios del comprobante ${number}`,
    loading: 'Cargando historial...',
    empty: 'El comprobante no tiene cambios registrados.',
    call: (txId: string) => `Llamada ${txId}`,
    status: {
      header: 'Historial de estados',
      description:
        'El comprobante se registró antes de que el portal guardara cada cambio: sus cambios de estado anteriores se muestran aquí.',
      tableLabel: (number: string) => `Historial de estados del comprobante ${number}`,
      empty: 'El comprobante no tiene cambios de estado registrados.',
      columns: {
        when: 'Fecha y usuario',
        change: 'Cambio de estado y motivo',
      },
    },
    reason: (reason: string) => `Motivo: ${reason}`,
    /** An entry that is not a change of status (a new SUNAT check asked for): its title, and what it kept. */
    previousAnswer: (answer: string) => `Respuesta anterior de SUNAT: ${answer}`,
    initial: 'Registro →',
    from: (status: string) => `${status} →`,
    system: 'Sistema',
  },
} as const;
