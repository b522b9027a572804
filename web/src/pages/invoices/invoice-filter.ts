import {
  ACQUIRER_CONFORMITY_STATES,
  INVOICE_STATUSES,
  INVOICE_TYPES,
  type AcquirerConformityState,
  type InvoiceStatus,
  type InvoiceType,
} from '@portal/shared';

/** The conformity kind the reviewer works with (spec §2: a mode choice between HES and MIGO). */
export const FILTER_MODES = ['HES', 'MIGO'] as const;
export type FilterMode = (typeof FILTER_MODES)[number];

/**
 * The invoice filter of spec §3 as the screen holds it, in the URL's query string so that a filtered
 * list can be linked and reloaded (the header links `/invoices?search=…` and `/invoices?issuer=<ruc>`).
 * Parameter names are those of GET /invoices; `mode` is the screen's own.
 */
export interface InvoiceFilterState {
  readonly client?: string;
  readonly invoiceStatus: readonly InvoiceStatus[];
  readonly invoiceType: readonly InvoiceType[];
  readonly office?: string;
  readonly responsible?: string;
  readonly acquirer?: string;
  readonly issuer?: string;
  readonly search?: string;
  /** "Vence entre": the expected payment date from, to (yyyy-mm-dd, both included). */
  readonly dueFrom?: string;
  readonly dueTo?: string;
  /** Invoices whose Ley 29623 conformity clock is in this state. */
  readonly acquirerConformity?: AcquirerConformityState;
  /** "Observadas": only invoices staff marked observed. */
  readonly observed?: boolean;
  readonly mode: FilterMode;
}

export type FilterPatch = { readonly [K in keyof InvoiceFilterState]?: InvoiceFilterState[K] | undefined };

export const EMPTY_FILTER: InvoiceFilterState = { invoiceStatus: [], invoiceType: [], mode: 'HES' };

/** A filter with some values changed; a value given as undefined is cleared. */
export function applyPatch(base: InvoiceFilterState, patch: FilterPatch): InvoiceFilterState {
  const next = { ...base, ...patch };
  return {
    ...next,
    invoiceStatus: next.invoiceStatus ?? [],
    invoiceType: next.invoiceType ?? [],
    mode: next.mode ?? 'HES',
  };
}

/** Text filters are bounded as the API bounds them. */
export const SEARCH_MAX_LENGTH = 100;
const RUC = /^\d{11}$/;

export const isRuc = (value: string): boolean => RUC.test(value);

function listOf<T extends string>(raw: string | null, allowed: readonly T[]): T[] {
  if (!raw) return [];
  const values = raw.split(',').map((part) => part.trim());
  return allowed.filter((value) => values.includes(value));
}

function text(raw: string | null, max = SEARCH_MAX_LENGTH): string | undefined {
  const value = raw?.trim();
  return value ? value.slice(0, max) : undefined;
}

/** A calendar date of the URL (yyyy-mm-dd) that exists; anything else is dropped. */
function isoDate(raw: string | null): string | undefined {
  const value = raw?.trim();
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  return new Date(`${value}T00:00:00Z`).toISOString().startsWith(value) ? value : undefined;
}

function ruc(raw: string | null): string | undefined {
  const value = raw?.trim();
  return value && isRuc(value) ? value : undefined;
}

/** Reads the filter from a query string; unknown or malformed values are dropped, never sent. */
export function parseFilter(params: URLSearchParams): InvoiceFilterState {
  const mode = params.get('mode');
  return {
    client: ruc(params.get('client')),
    invoiceStatus: listOf(params.get('invoiceStatus'), INVOICE_STATUSES),
    invoiceType: listOf(params.get('invoiceType'), INVOICE_TYPES),
    office: text(params.get('office')),
    responsible: text(params.get('responsible')),
    acquirer: ruc(params.get('acquirer')),
    issuer: ruc(params.get('issuer')),
    search: text(params.get('search')),
    dueFrom: isoDate(params.get('dueFrom')),
    dueTo: isoDate(params.get('dueTo')),
    acquirerConformity: listOf(params.get('acquirerConformity'), ACQUIRER_CONFORMITY_STATES)[0],
    ...(params.get('observed') === 'true' ? { observed: true } : {}),
    mode: mode === 'MIGO' ? 'MIGO' : 'HES',
  };
}

/** Writes the filter as a query string: empty values and the default mode are left out. */
export function serializeFilter(filter: InvoiceFilterState): URLSearchParams {
  const params = new URLSearchParams();
  const set = (name: string, value: string | undefined) => {
    if (value) params.set(name, value);
  };
  set('client', filter.client);
  // In the lists' own order, so that one filter always reads the same.
  set('invoiceStatus', INVOICE_STATUSES.filter((status) => filter.invoiceStatus.includes(status)).join(','));
  set('invoiceType', INVOICE_TYPES.filter((type) => filter.invoiceType.includes(type)).join(','));
  set('office', filter.office);
  set('responsible', filter.responsible);
  set('acquirer', filter.acquirer);
  set('issuer', filter.issuer);
  set('search', filter.search);
  set('dueFrom', filter.dueFrom);
  set('dueTo', filter.dueTo);
  set('acquirerConformity', filter.acquirerConformity);
  if (filter.observed) params.set('observed', 'true');
  if (filter.mode !== 'HES') params.set('mode', filter.mode);
  return params;
}

/**
 * Whether any of the filters behind 'Más filtros' is set (they are shown open then): all but the first row's
 * company, status and search.
 */
export function hasMoreFilters(filter: InvoiceFilterState): boolean {
  return Boolean(
    filter.invoiceType.length > 0 ||
    filter.office ||
    filter.dueFrom ||
    filter.dueTo ||
    filter.observed ||
    filter.acquirerConformity ||
    filter.responsible ||
    filter.acquirer ||
    filter.issuer ||
    filter.mode !== 'HES',
  );
}

/** Whether anything narrows the list beyond the company. */
export function isFiltered(filter: InvoiceFilterState): boolean {
  return Boolean(
    filter.invoiceStatus.length > 0 ||
    filter.invoiceType.length > 0 ||
    filter.office ||
    filter.responsible ||
    filter.acquirer ||
    filter.issuer ||
    filter.search ||
    filter.dueFrom ||
    filter.dueTo ||
    filter.acquirerConformity ||
    filter.observed,
  );
}
