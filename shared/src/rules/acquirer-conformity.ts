import type { InvoiceType } from '../domain.js';
import { limaDate } from '../format.js';
import type { AcquirerConformity, AcquirerConformityState } from '../schemas/acquirer-conformity.js';
import type { InvoicePayment } from '../schemas/payment.js';

/**
 * The rules of the Ley 29623 conformity clock, with their sources (docs/ap-conformity.md). Pure: every function takes
 * the moment it works for, which the functions read from the stage's clock port.
 */

/** Calendar days the acquirer has to answer (D.U. 013-2020 art. 7; R.S. 165-2021/SUNAT). */
export const CONFORMITY_PERIOD_DAYS = 8;
/**
 * SUNAT's Plataforma de Confirmación holds the documents issued from this day (R.S. 165-2021/SUNAT); earlier ones
 * went through CAVALI's Factrack, which the portal does not follow.
 */
export const CONFORMITY_PLATFORM_START = '2021-12-17';
/** SUNAT puts the document at the acquirer's disposal within this many calendar days of its issue (D.U. 013-2020 art. 6.3). */
export const SUNAT_DISPOSAL_DAYS = 2;
/** A disconformity registered on the last day extends the period by this many calendar days (R.S. 165-2021/SUNAT). */
export const LAST_DAY_DISCONFORMITY_EXTENSION_DAYS = 2;
/** The staff are reminded this many days before the last day, and on the last day. */
export const REMINDER_DAYS_BEFORE = 2;

/** The documents the clock applies to (D.U. 013-2020 Title I: factura and recibo por honorarios electrónicos). */
export const CONFORMITY_DOCUMENT_TYPES: readonly InvoiceType[] = ['FACTURA', 'RECIBO_POR_HONORARIOS'];

const DAY_MS = 86_400_000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function dayNumber(date: string): number {
  if (!ISO_DATE.test(date)) throw new Error(`not a calendar date: ${date}`);
  return Date.parse(`${date}T00:00:00Z`) / DAY_MS;
}

/** A calendar date moved by whole days (month and year ends included). */
export function addDays(date: string, days: number): string {
  return new Date((dayNumber(date) + days) * DAY_MS).toISOString().slice(0, 10);
}

/** Calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round(dayNumber(to) - dayNumber(from));
}

/** The moment a calendar day starts in Lima (UTC-5 all year, no daylight saving time). */
export function startOfLimaDay(date: string): Date {
  return new Date(dayNumber(date) * DAY_MS + 5 * 3_600_000);
}

/** The Lima calendar day of a moment. */
export function limaDayOf(at: Date | string): string {
  const day = limaDate(at);
  if (!day) throw new Error(`not a moment: ${String(at)}`);
  return day;
}

/** What the clock reads of an invoice's payment (schemas/payment.ts): the forma de pago and its cuotas. */
export type CreditTerms = Pick<InvoicePayment, 'method' | 'installments'>;

/**
 * What the clock reads of the forma de pago: whether the document is al crédito and its last due date. The one place
 * that reads the invoice's `payment`. Null when the invoice has none (stored before the portal kept it); a document
 * stating no forma de pago reads as al contado (docs/ap-payment.md).
 */
export function creditTermsOf(invoice: {
  readonly payment?: CreditTerms | null | undefined;
}): { readonly credit: boolean; readonly lastDueDate: string | null } | null {
  const terms = invoice.payment;
  if (!terms) return null;
  const dates = terms.installments.map((installment) => installment.dueDate).sort();
  return { credit: terms.method === 'CREDITO', lastDueDate: dates.at(-1) ?? null };
}

export type ConformityScope =
  | { readonly applies: true }
  | {
      readonly applies: false;
      readonly reason: 'DOCUMENT_TYPE' | 'BEFORE_PLATFORM' | 'NO_PAYMENT_TERMS' | 'CASH' | 'PAYABLE_WITHIN_PERIOD';
    };

/**
 * Whether an invoice runs the conformity clock: a factura or recibo por honorarios electrónico, issued since SUNAT's
 * platform holds them, al crédito and payable more than 8 days after its issue. With installments the last due date
 * counts: the payment is not complete before it, and reading it widely only costs a reminder, where reading it
 * narrowly could let a conformity be presumed unseen. A crédito without due dates (SUNAT requires them) is in scope.
 */
export function conformityScopeOf(invoice: {
  readonly type: InvoiceType;
  readonly issuedAt: string;
  readonly payment?: CreditTerms | null | undefined;
}): ConformityScope {
  if (!CONFORMITY_DOCUMENT_TYPES.includes(invoice.type)) return { applies: false, reason: 'DOCUMENT_TYPE' };
  if (invoice.issuedAt < CONFORMITY_PLATFORM_START) return { applies: false, reason: 'BEFORE_PLATFORM' };
  const terms = creditTermsOf(invoice);
  if (!terms) return { applies: false, reason: 'NO_PAYMENT_TERMS' };
  if (!terms.credit) return { applies: false, reason: 'CASH' };
  if (terms.lastDueDate !== null && daysBetween(invoice.issuedAt, terms.lastDueDate) <= CONFORMITY_PERIOD_DAYS) {
    return { applies: false, reason: 'PAYABLE_WITHIN_PERIOD' };
  }
  return { applies: true };
}

/** Why a document runs no clock, as the portal says it («Este comprobante no está sujeto …: {reason}»). */
export const CONFORMITY_SCOPE_REASON_TEXTS: Record<Exclude<ConformityScope, { applies: true }>['reason'], string> = {
  DOCUMENT_TYPE: 'solo la factura y el recibo por honorarios electrónicos al crédito lo están',
  BEFORE_PLATFORM: 'fue emitido antes del 17/12/2021, cuando SUNAT aún no recibía conformidades',
  NO_PAYMENT_TERMS: 'no indica su forma de pago',
  CASH: 'su forma de pago es al contado',
  PAYABLE_WITHIN_PERIOD: 'su pago vence dentro de los 8 días siguientes a su emisión',
};

/** The last day to answer when the days are counted from `countedFrom` (excluded; the last day included). */
export function conformityDeadline(countedFrom: string): string {
  return addDays(countedFrom, CONFORMITY_PERIOD_DAYS);
}

/** The clock an invoice in scope starts with: counted from the day the portal received it (Lima). */
export function openAcquirerConformity(invoice: { readonly receivedAt: string }): AcquirerConformity {
  const countedFrom = limaDayOf(invoice.receivedAt);
  return {
    countedFrom,
    countedFromBasis: 'RECEPTION',
    deadline: conformityDeadline(countedFrom),
    state: 'OPEN',
    answers: [],
    presumedAt: null,
  };
}

/** The scheduled job's steps, in order: two reminders, then the presumed conformity. */
export const CONFORMITY_STEPS = ['REMIND_TWO_DAYS', 'REMIND_LAST_DAY', 'PRESUME'] as const;
export type ConformityStep = (typeof CONFORMITY_STEPS)[number];

/** When a step is due: the start (Lima) of two days before the last day, of the last day, and of the day after it. */
export function conformityStepAt(deadline: string, step: ConformityStep): Date {
  switch (step) {
    case 'REMIND_TWO_DAYS':
      return startOfLimaDay(addDays(deadline, -REMINDER_DAYS_BEFORE));
    case 'REMIND_LAST_DAY':
      return startOfLimaDay(deadline);
    case 'PRESUME':
      return startOfLimaDay(addDays(deadline, 1));
  }
}

/**
 * The step to take now, from the next one on record: the latest whose time has come, so that a reminder whose day
 * passed (the job stopped, a clock moved) is not sent late, and null when none is due yet.
 */
export function dueConformityStep(deadline: string, next: ConformityStep, now: Date): ConformityStep | null {
  const pending = CONFORMITY_STEPS.slice(CONFORMITY_STEPS.indexOf(next));
  const due = pending.filter((step) => conformityStepAt(deadline, step).getTime() <= now.getTime());
  return due.at(-1) ?? null;
}

/** The step after one, or null after the presumption. */
export function stepAfter(step: ConformityStep): ConformityStep | null {
  return CONFORMITY_STEPS[CONFORMITY_STEPS.indexOf(step) + 1] ?? null;
}

/**
 * Until when an answer can be registered (included), or null: while open, the deadline; after a disconformity,
 * conformity can still be registered once the supplier corrects, until the deadline (two more days when the
 * disconformity came on the last day: R.S. 165-2021/SUNAT); never after conformity, expressed or presumed.
 */
export function answerableUntil(conformity: Pick<AcquirerConformity, 'state' | 'deadline' | 'answers'>): string | null {
  if (conformity.state === 'OPEN') return conformity.deadline;
  if (conformity.state !== 'DISCONFORMITY') return null;
  const disconformity = conformity.answers.findLast((answer) => answer.decision === 'DISCONFORMITY');
  const onLastDay = disconformity ? limaDayOf(disconformity.at) === conformity.deadline : false;
  return onLastDay ? addDays(conformity.deadline, LAST_DAY_DISCONFORMITY_EXTENSION_DAYS) : conformity.deadline;
}

/** Which decisions may be registered now: none, or those of `answerableUntil`'s state. */
export function allowedDecisions(
  conformity: Pick<AcquirerConformity, 'state' | 'deadline' | 'answers'>,
  now: Date,
): readonly ('CONFORMITY' | 'DISCONFORMITY')[] {
  const until = answerableUntil(conformity);
  if (until === null || limaDayOf(now) > until) return [];
  return conformity.state === 'OPEN' ? ['CONFORMITY', 'DISCONFORMITY'] : ['CONFORMITY'];
}

/** The clock as a read answers it: with the days left, the latest legal deadline and until when it can be answered. */
export function acquirerConformityView(
  conformity: AcquirerConformity,
  invoice: { readonly issuedAt: string },
  now: Date,
): AcquirerConformity {
  const { daysLeft: _d, latestLegalDeadline: _l, answerableUntil: _a, ...stored } = conformity;
  const latest = addDays(invoice.issuedAt, SUNAT_DISPOSAL_DAYS + CONFORMITY_PERIOD_DAYS);
  const until = answerableUntil(stored);
  return {
    ...stored,
    daysLeft: daysBetween(limaDayOf(now), stored.deadline),
    latestLegalDeadline: latest < stored.deadline ? latest : null,
    answerableUntil: until !== null && limaDayOf(now) <= until ? until : null,
  };
}

/**
 * The one deadline the screens show of a clock (docs/ap-conformity.md, rule 2): the portal's own, counted from the
 * reception, unless SUNAT's period ended earlier at the latest (a document received more than 2 days after its issue),
 * then that one, with its days left. The list, the sidebar's summary and its Ley 29623 section all read it.
 */
export function shownConformityDeadline(
  conformity: Pick<AcquirerConformity, 'deadline' | 'daysLeft' | 'latestLegalDeadline'>,
): { readonly date: string; readonly daysLeft: number | undefined; readonly basis: 'RECEPTION' | 'ISSUE' } {
  const latest = conformity.latestLegalDeadline ?? null;
  if (latest === null || latest >= conformity.deadline) {
    return { date: conformity.deadline, daysLeft: conformity.daysLeft, basis: 'RECEPTION' };
  }
  const daysLeft =
    conformity.daysLeft === undefined ? undefined : conformity.daysLeft - daysBetween(latest, conformity.deadline);
  return { date: latest, daysLeft, basis: 'ISSUE' };
}

/** The title of the invoice's history entry for each state the clock reaches (the invoice's status does not change). */
export const ACQUIRER_CONFORMITY_HISTORY_TITLES: Record<Exclude<AcquirerConformityState, 'OPEN'>, string> = {
  CONFORMITY: 'Conformidad registrada (Ley 29623)',
  DISCONFORMITY: 'Disconformidad registrada (Ley 29623)',
  PRESUMED_CONFORMITY: 'Conformidad presunta (Ley 29623)',
};

/** Whether a history entry is one of the clock's (an event of its own, not a change of status). */
export function isAcquirerConformityHistoryEntry(entry: { readonly title: string }): boolean {
  return Object.values(ACQUIRER_CONFORMITY_HISTORY_TITLES).includes(entry.title);
}
