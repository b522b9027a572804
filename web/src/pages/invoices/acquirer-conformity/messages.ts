import { ERROR_MESSAGES } from '@portal/shared';

/** Every text of the Ley 29623 conformity clock on the invoices screen: the column, the filter, the sidebar. */
export const conformityMessages = {
  none: '—',
  /** A running clock, in the list and the sidebar: the deadline and the days left (0: the last day). */
  deadline: (date: string, daysLeft: number | undefined) => {
    if (daysLeft === undefined) return `Vence el ${date}`;
    if (daysLeft > 1) return `Vence el ${date} · quedan ${daysLeft} días`;
    if (daysLeft === 1) return `Vence el ${date} · queda 1 día`;
    if (daysLeft === 0) return `Vence hoy ${date}`;
    return `Venció el ${date}`;
  },
  state: {
    OPEN: 'Por vencer',
    CONFORMITY: 'Conforme',
    DISCONFORMITY: 'Disconforme',
    PRESUMED_CONFORMITY: 'Conformidad presunta',
  },
  stateOn: (label: string, date: string) => `${label} · ${date}`,
  filter: {
    label: 'Conformidad SUNAT',
    all: 'Todas',
    options: {
      OPEN: 'Por vencer',
      CONFORMITY: 'Conforme',
      DISCONFORMITY: 'Disconforme',
      PRESUMED_CONFORMITY: 'Vencida: conformidad presunta',
    },
    token: (label: string) => `Conformidad SUNAT: ${label}`,
  },
  section: {
    title: 'Conformidad ante SUNAT (Ley 29623)',
    /** What the section says first to whom: staff answer for the company, a supplier reads its client's answer. */
    where: {
      staff:
        'La conformidad o disconformidad se expresa en la Plataforma de Confirmación de SUNAT (SUNAT Operaciones en Línea). ' +
        'Aquí se registra lo que se respondió allí, para el seguimiento y los recordatorios: registrarlo en el portal no lo comunica a SUNAT.',
      supplier:
        'Su cliente expresa la conformidad o disconformidad de este comprobante en la Plataforma de Confirmación de SUNAT. ' +
        'Aquí se muestra lo que el cliente registró en el portal.',
    },
    period: {
      staff: (days: number) =>
        `Como adquirente, la sociedad tiene ${days} días calendario para responder; sin respuesta, la conformidad se presume y es irrevocable.`,
      supplier: (days: number) =>
        `Su cliente tiene ${days} días calendario para responder; sin respuesta, la conformidad se presume y es irrevocable, y el comprobante puede negociarse.`,
    },
    state: 'Situación',
    deadline: 'Plazo',
    countedFrom: 'Contado desde',
    countedFromReception: (date: string) =>
      `La recepción en el portal, el ${date}: el portal no conoce la fecha en que SUNAT puso el comprobante a disposición del adquirente.`,
    /** A late document: the portal counts from its reception, SUNAT's period ended earlier (one deadline shown). */
    countedFromIssue: (received: string, issued: string) =>
      `La emisión, el ${issued}: el portal lo recibió el ${received}, más de 2 días después, y SUNAT pone el comprobante a disposición del adquirente a más tardar 2 días después de su emisión (D.U. 013-2020). Verifique la fecha en la Plataforma de Confirmación.`,
    deadlineValue: (date: string, basis: 'RECEPTION' | 'ISSUE') =>
      basis === 'ISSUE' ? `A más tardar el ${date}` : date,
    answerUntil: (date: string) =>
      `Se puede registrar la conformidad hasta el ${date}, tras la subsanación del proveedor.`,
    presumed: (date: string) => `Venció el plazo sin respuesta registrada: la conformidad se presume desde el ${date}.`,
    answer: {
      // Who registered it is for staff only: a supplier reads when.
      CONFORMITY: (when: string, by?: string) => `Conformidad registrada el ${when}${by ? ` por ${by}` : ''}.`,
      DISCONFORMITY: (when: string, by?: string) => `Disconformidad registrada el ${when}${by ? ` por ${by}` : ''}.`,
    },
    cause: (label: string) => `Causal: ${label}.`,
    reason: (text: string) => `Motivo: ${text}`,
    rejectedNote:
      'El comprobante fue rechazado en el portal: no se muestra la cuenta regresiva del plazo, que sigue corriendo ante SUNAT.',
    rejectionIsNotDisconformity:
      'Rechazar el comprobante en el portal no es expresar disconformidad ante SUNAT: si no se registra una respuesta en la Plataforma de Confirmación, la conformidad se presume al vencer el plazo.',
    notApplicable: (reason: string) => `No está sujeto al plazo de conformidad de la Ley 29623: ${reason}.`,
    notTracked: 'no tiene plazo de conformidad registrado en el portal',
    registerConformity: 'Registrar conformidad',
    registerDisconformity: 'Registrar disconformidad',
  },
  modal: {
    header: { CONFORMITY: 'Registrar conformidad', DISCONFORMITY: 'Registrar disconformidad' },
    intro: (number: string) =>
      `Registre lo que se respondió en la Plataforma de Confirmación de SUNAT sobre el comprobante ${number}.`,
    conformityNote: 'La conformidad es irrevocable. Se notificará al proveedor.',
    disconformityNote: 'Se notificará al proveedor la causal y el motivo, para que subsane el comprobante.',
    cause: 'Causal',
    causePlaceholder: 'Elija la causal',
    causeRequired: ERROR_MESSAGES.ERROR_ACQUIRER_DISCONFORMITY_WITHOUT_CAUSE,
    reason: 'Motivo',
    reasonRequired: ERROR_MESSAGES.ERROR_ACQUIRER_DISCONFORMITY_WITHOUT_REASON,
    comment: 'Comentario',
    optional: 'opcional',
    confirm: { CONFORMITY: 'Registrar conformidad', DISCONFORMITY: 'Registrar disconformidad' },
    success: {
      CONFORMITY: 'Se registró la conformidad. Se ha notificado al proveedor.',
      DISCONFORMITY: 'Se registró la disconformidad. Se ha notificado al proveedor.',
    },
  },
} as const;
