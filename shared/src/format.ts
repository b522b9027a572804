import type { Currency } from './domain.js';

const CURRENCY_PREFIX: Record<Currency, string> = { PEN: 'S/ ', USD: '$ ' };

/**
 * Built on first use, not when the module loads: a formatter loads its locale's (or time zone's) ICU data, some
 * milliseconds that every function importing this module would otherwise pay at its cold start, used or not.
 */
function lazily<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const number = lazily(() => new Intl.NumberFormat('es-PE', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));

/** Money as the spec shows it: 'S/ 1,234.50' or '$ 99.00' (Peruvian grouping, two decimals). */
export function formatMoney(amount: number, currency: Currency = 'PEN'): string {
  return CURRENCY_PREFIX[currency] + number().format(amount);
}

/**
 * The group's clock. Every date and time a user reads is Lima's, whatever the zone of the browser or the
 * server that writes it: the group works in Lima, and its suppliers bill Peruvian companies.
 */
export const LIMA_TIME_ZONE = 'America/Lima';

/** Said after a time of day, which a reader elsewhere could take for its own: '10:42 (hora de Lima)'. */
export const LIMA_TIME_NOTE = 'hora de Lima';

/** What a missing or unreadable date reads as. */
export const NO_DATE = '—';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A timestamp without a zone designator: read as UTC (the API writes every timestamp in UTC). */
const WITHOUT_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

const limaClock = lazily(
  () =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone: LIMA_TIME_ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }),
);

interface LimaMoment {
  readonly year: string;
  readonly month: string;
  readonly day: string;
  readonly hour: string;
  readonly minute: string;
}

/** The Lima calendar day and time of day of a moment; null when it is not one. */
function limaMoment(at: Date | string): LimaMoment | null {
  const date = typeof at === 'string' ? new Date(WITHOUT_ZONE.test(at) ? `${at}Z` : at) : at;
  if (Number.isNaN(date.getTime())) return null;
  const parts: Record<string, string> = {};
  for (const part of limaClock().formatToParts(date)) parts[part.type] = part.value;
  const { year, month, day, hour, minute } = parts;
  if (!year || !month || !day || !hour || !minute) return null;
  return { year, month, day, hour, minute };
}

const dayMonthYear = (year: string, month: string, day: string) => `${day}/${month}/${year.slice(-2)}`;

/** The calendar day in Lima (yyyy-mm-dd) of a moment: what 'today' or 'that day' means to the group. */
export function limaDate(at: Date | string = new Date()): string | null {
  const moment = limaMoment(at);
  return moment ? `${moment.year}-${moment.month}-${moment.day}` : null;
}

/**
 * A date as dd/mm/yy (spec §9). An ISO date (yyyy-mm-dd: issue, payment dates) is that calendar day as it
 * is; a timestamp is first placed on Lima's calendar (a moment after 19:00 in Lima is already the next day
 * in UTC). '—' when absent or unreadable.
 */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return NO_DATE;
  const date = DATE_ONLY.exec(iso);
  if (date) return dayMonthYear(date[1]!, date[2]!, date[3]!);
  const moment = limaMoment(iso);
  return moment ? dayMonthYear(moment.year, moment.month, moment.day) : NO_DATE;
}

export interface TimeOptions {
  /** Adds '(hora de Lima)' where a reader could take the time for its own zone's. */
  readonly zone?: boolean;
}

const withZone = (text: string, options: TimeOptions) => (options.zone ? `${text} (${LIMA_TIME_NOTE})` : text);

/** A timestamp's time of day in Lima, hh:mm on 24 hours; '—' when absent or unreadable. */
export function formatTime(iso: string | null | undefined, options: TimeOptions = {}): string {
  const moment = iso ? limaMoment(iso) : null;
  return moment ? withZone(`${moment.hour}:${moment.minute}`, options) : NO_DATE;
}

/** A timestamp as dd/mm/yy hh:mm in Lima; '—' when absent or unreadable. */
export function formatDateTime(iso: string | null | undefined, options: TimeOptions = {}): string {
  const moment = iso ? limaMoment(iso) : null;
  if (!moment) return NO_DATE;
  return withZone(`${dayMonthYear(moment.year, moment.month, moment.day)} ${moment.hour}:${moment.minute}`, options);
}

/** Weeks start on Monday (spec §9): 1 for date pickers that take a start-of-week day. */
export const START_OF_WEEK = 1;

/** Why a typed date is not one: not in the dd/mm/aa shape, or a day the calendar does not have (31/02). */
export type TypedDateProblem = 'FORMAT' | 'IMPOSSIBLE';

const TYPED_DATE = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/;

/**
 * A date as a person in Peru types it, dd/mm/aa or dd/mm/aaaa (one-digit days and months, '-' or '.' also
 * read), as the ISO date the API takes. Two-digit years are this century's (26 is 2026): the portal has
 * no document from before 2010 (ISSUE_DATE_FLOOR).
 */
export function parseTypedDate(typed: string): { date: string } | { problem: TypedDateProblem } {
  const match = TYPED_DATE.exec(typed.trim());
  if (!match) return { problem: 'FORMAT' };
  const [, dayText, monthText, yearText] = match as unknown as [string, string, string, string];
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  const month = Number(monthText);
  const day = Number(dayText);
  // Date.UTC rolls 31/02 over to March: a day that comes back different does not exist.
  const check = new Date(Date.UTC(year, month - 1, day));
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day
  ) {
    return { problem: 'IMPOSSIBLE' };
  }
  const pad = (value: number, size = 2) => String(value).padStart(size, '0');
  return { date: `${pad(year, 4)}-${pad(month)}-${pad(day)}` };
}

const cardinal = lazily(() => new Intl.PluralRules('es-PE'));
const integer = lazily(() => new Intl.NumberFormat('es-PE', { maximumFractionDigits: 0 }));

/** A count as the group reads it: '1,234' (Peruvian grouping, no decimals). */
export function formatCount(n: number): string {
  return integer().format(n);
}

/**
 * The forms of a word or phrase that a count chooses between. Spanish CLDR also has 'many' (a round million: 'de'
 * follows, «1 millón de comprobantes»); a phrase that gives no 'many' form takes 'other' there.
 */
export interface PluralForms {
  readonly one: string;
  readonly other: string;
  readonly many?: string;
}

/** The form of a word that agrees with a count (es-PE plural rules): plural(1, { one: 'fila', other: 'filas' }) is 'fila'. */
export function plural(n: number, forms: PluralForms): string {
  const category = cardinal().select(n);
  if (category === 'one') return forms.one;
  if (category === 'many' && forms.many !== undefined) return forms.many;
  return forms.other;
}

/** A count and the word that agrees with it: counted(1234, { one: 'rechazado', other: 'rechazados' }) is '1,234 rechazados'. */
export function counted(n: number, forms: PluralForms): string {
  return `${formatCount(n)} ${plural(n, forms)}`;
}

/** What closes a sentence: a text that ends so already gets no second mark. */
const SENTENCE_CLOSED = /[.!?…]$/;

/**
 * Ends a sentence with one period: a sentence that ends with a business name such as 'Cementos Andinos S.A.A.' already
 * brings its period, and gets no second one ('S.A.A..'). Trailing spaces go; an empty text stays empty.
 */
export function sentenceEnd(text: string): string {
  const trimmed = text.trimEnd();
  if (trimmed === '' || SENTENCE_CLOSED.test(trimmed)) return trimmed;
  return `${trimmed}.`;
}
