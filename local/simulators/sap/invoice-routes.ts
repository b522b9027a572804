import { randomUUID } from 'node:crypto';
import type { SimRoute } from '../http.js';
import { mismatch, withholdingKind, withholdingRows } from './checks.js';
import { linesOf, unknownProperty } from './metadata.js';
import { failureFor, isCreditMemo, record, type PaymentRunEntry, type Posting, type SapState } from './state.js';

/**
 * API_SUPPLIERINVOICE_PROCESS_SRV and ZPORTAL_PAYMENT_RUN_SRV as the portal's functions call them: the CSRF
 * handshake, the supplier-invoice deep insert and its read, and the payment-run items.
 */

export const SERVICE = '/sap/opu/odata/sap/API_SUPPLIERINVOICE_PROCESS_SRV';
export const PAYMENT_SERVICE = '/sap/opu/odata/sap/ZPORTAL_PAYMENT_RUN_SRV';
const SESSION_COOKIE = 'SAP_SESSIONID_S4L_100';

/** A request as the simulator's router hands it over, and what a route answers. */
type Request = Parameters<SimRoute['handle']>[0];
type Answer = ReturnType<SimRoute['handle']>;

export const odataError = (status: number, code: string, value: string) => ({
  status,
  body: { error: { code, message: { lang: 'es', value } } },
});
const odataDate = (ms: number) => `/Date(${ms})/`;

const authorized = (state: SapState, headers: Record<string, string | string[] | undefined>) =>
  headers.authorization === state.expectedAuth;
const unauthorized = odataError(401, '/IWFND/CM_CONSUMER/401', 'Usuario o contraseña incorrectos.');

/** The request's JSON object; null when it is not one. */
export const readJson = (body: string): Record<string, unknown> | null => {
  try {
    const parsed: unknown = JSON.parse(body || '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

const answerOf = (payload: Record<string, unknown>, posting: Posting) => ({
  status: 201,
  body: { d: { ...payload, SupplierInvoice: posting.document, FiscalYear: posting.fiscalYear } },
});

export function invoiceRoutes(state: SapState): SimRoute[] {
  return [
    { method: 'GET', pattern: new RegExp(`^${SERVICE}/?$`), handle: (req) => csrfHandshake(state, req) },
    {
      method: 'POST',
      pattern: new RegExp(`^${SERVICE}/A_SupplierInvoice$`),
      handle: (req) => postSupplierInvoice(state, req),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${SERVICE}/A_SupplierInvoice$`),
      handle: (req) => findSupplierInvoices(state, req),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${PAYMENT_SERVICE}/PaymentRunItems$`),
      handle: (req) => paymentRunItems(state, req),
    },
  ];
}

/** The service document, and the CSRF token bound to a session cookie when asked (x-csrf-token: fetch). */
function csrfHandshake(state: SapState, { headers }: Request): Answer {
  if (!authorized(state, headers)) return unauthorized;
  const body = { d: { EntitySets: ['A_SupplierInvoice', 'A_SuppInvcItemPurOrdRef'] } };
  if (headers['x-csrf-token']?.toString().toLowerCase() !== 'fetch') return { status: 200, body };
  const token = randomUUID();
  const sessionId = randomUUID();
  state.sessions.set(token, sessionId);
  return {
    status: 200,
    body,
    headers: { 'x-csrf-token': token, 'set-cookie': `${SESSION_COOKIE}=${sessionId}; path=/; HttpOnly` },
  };
}

/** The A_SupplierInvoice deep insert: CSRF, metadata, Repeatability-Request-ID, the three-way match. */
function postSupplierInvoice(state: SapState, { headers, body }: Request): Answer {
  if (!authorized(state, headers)) return unauthorized;
  const token = headers['x-csrf-token']?.toString() ?? '';
  const cookie = headers.cookie?.toString() ?? '';
  const sessionId = state.sessions.get(token);
  if (!sessionId || !cookie.includes(`${SESSION_COOKIE}=${sessionId}`)) {
    return {
      ...odataError(403, '/IWFND/CM_BEC/001', 'CSRF token validation failed'),
      headers: { 'x-csrf-token': 'Required' },
    };
  }
  const payload = readJson(body);
  const failure = failureFor(state, String(payload?.InvoicingParty ?? ''));
  if (failure !== null) return odataError(failure, '/IWBEP/CM_MGW_RT/000', 'Fallo simulado del sistema SAP.');
  if (!payload) return odataError(400, '/IWBEP/CM_MGW_RT/021', 'Malformed JSON');
  const invalid = unknownProperty(payload);
  if (invalid) return odataError(400, '/IWBEP/CM_MGW_RT/004', invalid);
  const requestId = headers['repeatability-request-id']?.toString() ?? null;
  const earlier = requestId ? state.repeatable.get(requestId) : undefined;
  if (earlier) return answerOf(payload, earlier);
  const problem = mismatch(state, payload);
  if (problem) return odataError(400, 'M8/000', problem);
  const posting: Posting = {
    document: String(state.documentNumber + 1),
    fiscalYear: String(state.now().getUTCFullYear()),
    companyCode: String(payload.CompanyCode),
    supplierId: String(payload.InvoicingParty),
    invoiceId: String(payload.SupplierInvoiceIDByInvcgParty),
    requestId,
    postedAt: state.now().toISOString(),
    creditMemo: payload.SupplierInvoiceIsCreditMemo === 'X',
    adjusts: payload.InvoiceReference
      ? { document: String(payload.InvoiceReference), fiscalYear: String(payload.InvoiceReferenceFiscalYear) }
      : null,
    grossAmount: Number(payload.InvoiceGrossAmount),
    currency: String(payload.DocumentCurrency ?? ''),
    purchaseOrders: [...new Set(linesOf(payload).map((line) => String(line.PurchaseOrder)))],
    isInvoice: payload.IsInvoice !== false,
    withholdings: withholdingRows(payload).map((row) => ({
      kind: withholdingKind(row)!,
      baseAmount: Number(row.WithholdingTaxBaseAmount),
      amount: Number(row.ManuallyEnteredWhldgTaxAmount),
    })),
  };
  record(state, { kind: 'posting', posting });
  return answerOf(payload, posting);
}

/** The read S/4HANA allows on the entity set: $filter with `eq` on header fields joined by `and`. */
function findSupplierInvoices(state: SapState, { headers, url }: Request): Answer {
  if (!authorized(state, headers)) return unauthorized;
  const filter = url.searchParams.get('$filter') ?? '';
  const conditions = new Map<string, string>();
  for (const part of filter.split(/\s+and\s+/)) {
    const match = /^\s*(\w+) eq '((?:[^']|'')*)'\s*$/.exec(part);
    if (!match) return odataError(400, '/IWBEP/CM_MGW_RT/022', `Filtro no válido: ${part}`);
    conditions.set(match[1]!, match[2]!.replace(/''/g, "'"));
  }
  const fields: Record<string, (p: Posting) => string> = {
    CompanyCode: (p) => p.companyCode,
    InvoicingParty: (p) => p.supplierId,
    SupplierInvoiceIDByInvcgParty: (p) => p.invoiceId,
    SupplierInvoice: (p) => p.document,
    FiscalYear: (p) => p.fiscalYear,
  };
  for (const name of conditions.keys())
    if (!fields[name]) return odataError(400, '/IWBEP/CM_MGW_RT/022', `No se puede filtrar por ${name}.`);
  const results = state.postings
    .filter((p) => [...conditions].every(([name, value]) => fields[name]!(p) === value))
    .map((p) => ({
      SupplierInvoice: p.document,
      FiscalYear: p.fiscalYear,
      CompanyCode: p.companyCode,
      InvoicingParty: p.supplierId,
      SupplierInvoiceIDByInvcgParty: p.invoiceId,
      SupplierInvoiceIsCreditMemo: isCreditMemo(p) ? 'X' : '',
      InvoiceReference: p.adjusts?.document ?? '',
      InvoiceReferenceFiscalYear: p.adjusts?.fiscalYear ?? '',
      ReverseDocument: '',
    }));
  return { status: 200, body: { d: { results } } };
}

/** ZPORTAL_PAYMENT_RUN_SRV: the payment-run items changed since a time, paged. */
function paymentRunItems(state: SapState, { headers, url }: Request): Answer {
  if (!authorized(state, headers)) return unauthorized;
  const filter = url.searchParams.get('$filter') ?? '';
  const since = /LastChangeDateTime ge datetimeoffset'([^']+)'/.exec(filter)?.[1];
  const sinceMs = since ? Date.parse(since) : -Infinity;
  if (Number.isNaN(sinceMs)) return odataError(400, '/IWBEP/CM_MGW_RT/022', 'Filtro no válido.');
  const top = Math.min(Number(url.searchParams.get('$top') ?? 500) || 500, 1000);
  const skip = Number(url.searchParams.get('$skip') ?? 0) || 0;
  const matching = state.paymentRuns.filter((entry) => entry.changedAt >= sinceMs);
  const page = matching.slice(skip, skip + top);
  let next: string | null = null;
  if (skip + top < matching.length) {
    const query = new URLSearchParams(url.searchParams);
    query.set('$skip', String(skip + top));
    next = `${PAYMENT_SERVICE}/PaymentRunItems?${query.toString()}`;
  }
  return { status: 200, body: { d: { results: page.map(paymentRunRow), __next: next } } };
}

function paymentRunRow(entry: PaymentRunEntry) {
  return {
    InvoicingParty: entry.supplierId,
    SupplierInvoiceIDByInvcgParty: entry.invoiceId,
    PortalInvoiceType: entry.invoiceType,
    ScheduledPaymentDate: odataDate(Date.parse(`${entry.scheduledAt}T00:00:00Z`)),
    PaymentDate: entry.paidAt ? odataDate(Date.parse(`${entry.paidAt}T00:00:00Z`)) : null,
    LastChangeDateTime: odataDate(entry.changedAt),
    PaymentDocument: entry.payment?.document ?? null,
    PaymentDocumentFiscalYear: entry.payment?.fiscalYear ?? null,
    PaymentMethod: entry.payment?.method ?? null,
    PaymentMethodName: entry.payment?.methodName ?? null,
    PaidAmount: entry.payment?.amount != null ? entry.payment.amount.toFixed(2) : null,
    PaymentCurrency: entry.payment?.currency ?? null,
  };
}
