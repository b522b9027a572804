import * as z from 'zod/mini';
import { staffOnly } from './visibility.js';
import { TEXT_LIMITS } from '../limits.js';
import { IsoDate, IsoDateTime } from './common.js';

/**
 * The acquirer's conformity of Ley 29623 as amended by D.U. 013-2020 (docs/ap-conformity.md): a factura or recibo por
 * honorarios electrónico al crédito, payable more than 8 days after issue, is put at the acquirer's disposal on SUNAT's
 * Plataforma de Confirmación (R.S. 165-2021/SUNAT); the acquirer has 8 calendar days to express conformity or
 * disconformity there, and its silence is presumed conformity. The portal counts the days, reminds the invoice's
 * staff and records what they answered on SUNAT's platform: the legal act is SUNAT's, not the portal's.
 *
 * Not to be confused with the HES/MIGO "conformidades" of the review (schemas/conformity.ts).
 */
export const ACQUIRER_CONFORMITY_STATES = ['OPEN', 'CONFORMITY', 'DISCONFORMITY', 'PRESUMED_CONFORMITY'] as const;
export const AcquirerConformityState = z.enum(ACQUIRER_CONFORMITY_STATES);
export type AcquirerConformityState = z.infer<typeof AcquirerConformityState>;

export const ACQUIRER_CONFORMITY_STATE_LABELS: Record<AcquirerConformityState, string> = {
  OPEN: 'Por vencer',
  CONFORMITY: 'Conforme',
  DISCONFORMITY: 'Disconforme',
  PRESUMED_CONFORMITY: 'Conformidad presunta',
};

/** What staff register, as they answered on SUNAT's platform. */
export const ACQUIRER_DECISIONS = ['CONFORMITY', 'DISCONFORMITY'] as const;
export const AcquirerDecision = z.enum(ACQUIRER_DECISIONS);
export type AcquirerDecision = z.infer<typeof AcquirerDecision>;

/** The causes of a disconformity SUNAT's platform takes (R.S. 165-2021/SUNAT). */
export const DISCONFORMITY_CAUSES = ['PAYMENT_TERM', 'NET_AMOUNT', 'GOODS_OR_SERVICES'] as const;
export const DisconformityCause = z.enum(DISCONFORMITY_CAUSES);
export type DisconformityCause = z.infer<typeof DisconformityCause>;

export const DISCONFORMITY_CAUSE_LABELS: Record<DisconformityCause, string> = {
  PAYMENT_TERM: 'Plazo de pago acordado',
  NET_AMOUNT: 'Monto neto pendiente de pago',
  GOODS_OR_SERVICES: 'Reclamo sobre los bienes adquiridos o servicios prestados',
};

/** An answer staff registered. */
export const AcquirerAnswer = z.object({
  decision: AcquirerDecision,
  /** Only with a disconformity. */
  cause: z.nullable(DisconformityCause),
  reason: z.nullable(z.string()),
  at: IsoDateTime,
  /** Who registered it (an e-mail). */
  by: staffOnly(z.string()),
});
export type AcquirerAnswer = z.infer<typeof AcquirerAnswer>;

/**
 * The conformity clock of one invoice, kept on the invoice (and, for the scheduled job and the list filter, on its
 * clock record: docs/data-design.md "Acquirer conformity clocks"). The last three fields are computed when it is
 * read, with the stage's clock; they are never stored.
 */
export const AcquirerConformity = z.object({
  /**
   * The day the 8 days are counted from (Lima), excluded from them (Código Civil art. 183): the portal's reception
   * of the invoice, because the date SUNAT put it at the acquirer's disposal is not known to the portal.
   */
  countedFrom: IsoDate,
  countedFromBasis: z.enum(['RECEPTION']),
  /** The last day to answer, included: countedFrom + 8 calendar days. */
  deadline: IsoDate,
  state: AcquirerConformityState,
  /** The answers registered, oldest first: a disconformity may be followed by conformity once the supplier corrects. */
  answers: z.array(AcquirerAnswer).check(z.maxLength(2)),
  /** When the scheduled job recorded the presumed conformity. */
  presumedAt: z.nullable(IsoDateTime),
  /** Calendar days from today (Lima) to the deadline: 0 on the last day, negative once it passed. */
  daysLeft: z.optional(z.int()),
  /**
   * SUNAT puts the document at the acquirer's disposal within 2 calendar days of its issue (D.U. 013-2020 art. 6.3):
   * when the portal received it later, the 8 days ended at the latest on this day, before the portal's deadline.
   */
  latestLegalDeadline: z.optional(z.nullable(IsoDate)),
  /** Until when (included) an answer can still be registered; null when none can. */
  answerableUntil: z.optional(z.nullable(IsoDate)),
});
export type AcquirerConformity = z.infer<typeof AcquirerConformity>;

/** POST …/acquirer-conformity: what staff answered on SUNAT's platform. */
export const RegisterAcquirerConformityBody = z.object({
  decision: AcquirerDecision,
  /** Required with a disconformity; refused with conformity. */
  cause: z.optional(DisconformityCause),
  /** Required with a disconformity; optional remark with conformity. */
  reason: z.optional(z.string().check(z.trim(), z.maxLength(TEXT_LIMITS.reason))),
});
export type RegisterAcquirerConformityBody = z.infer<typeof RegisterAcquirerConformityBody>;

/** The list filter: invoices whose clock is in one state (GET /invoices?acquirerConformity=OPEN). */
export const AcquirerConformityFilter = AcquirerConformityState;
