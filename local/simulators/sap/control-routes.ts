import type { SimRoute } from '../http.js';
import { readJson } from './invoice-routes.js';
import { record, type RegisteredDocuments, type SapState } from './state.js';

/**
 * The SAP simulator's control API (no auth), for tests and the local stage: what was posted, failures to simulate,
 * documents to register, payment runs to record, and the stage's scheduled jobs run on demand.
 */

/** A request as the simulator's router hands it over, and what a route answers. */
type Request = Parameters<SimRoute['handle']>[0];
type Answer = ReturnType<SimRoute['handle']>;

/** The payment methods the simulated payment runs use (SAP's codes are the group's customizing). */
export const PAYMENT_METHODS: Record<string, string> = { T: 'Transferencia bancaria', C: 'Cheque' };

export function controlRoutes(state: SapState): SimRoute[] {
  return [
    { method: 'GET', pattern: /^\/__control\/postings$/, handle: (req) => controlPostings(state, req) },
    { method: 'POST', pattern: /^\/__control\/fail$/, handle: (req) => controlFail(state, req) },
    { method: 'POST', pattern: /^\/__control\/documents$/, handle: (req) => controlDocuments(state, req) },
    { method: 'POST', pattern: /^\/__control\/payment-run$/, handle: (req) => controlPaymentRun(state, req) },
    {
      method: 'POST',
      pattern: /^\/__control\/schedules\/([A-Za-z0-9-]+)$/,
      handle: (req) => controlRunSchedule(state, req),
    },
    {
      method: 'GET',
      pattern: /^\/__control\/schedules\/([A-Za-z0-9-]+)$/,
      handle: (req) => controlScheduleState(state, req),
    },
  ];
}

/** GET /__control/postings: what the portal posted, counted per invoice. */
function controlPostings(state: SapState, { url }: Request): Answer {
  const supplierId = url.searchParams.get('supplierId');
  const portal = state.postings.filter((p) => !p.legacy);
  const selected = supplierId ? portal.filter((p) => p.supplierId === supplierId) : portal;
  const byInvoice: Record<string, number> = {};
  for (const p of selected) {
    const key = `${p.supplierId}/${p.invoiceId}`;
    byInvoice[key] = (byInvoice[key] ?? 0) + 1;
  }
  return { status: 200, body: { total: selected.length, byInvoice, postings: selected } };
}

/** POST /__control/fail: the next postings (of a supplier, or of any) fail with a status. */
function controlFail(state: SapState, { body }: Request): Answer {
  const payload = readJson(body);
  const count = Number(payload?.count ?? 1);
  if (!Number.isInteger(count) || count < 0) return { status: 400, body: { message: 'count: entero ≥ 0' } };
  const supplierId = payload?.supplierId == null ? '' : String(payload.supplierId);
  const failure = { left: count, status: Number(payload?.status ?? 503) };
  state.failures.set(supplierId, failure);
  return { status: 200, body: { failuresLeft: failure.left, status: failure.status, supplierId } };
}

/** POST /__control/documents: orders, HES and MIGO a test created, registered where they come from. */
function controlDocuments(state: SapState, { body }: Request): Answer {
  const payload = readJson(body);
  if (!payload) return { status: 400, body: { message: 'JSON no válido' } };
  record(state, { kind: 'documents', body: payload as RegisteredDocuments });
  return { status: 200, body: { purchaseOrders: state.orders.size, conformityDocuments: state.documents.size } };
}

/** POST /__control/payment-run: payment-run items recorded, a paid one with its remittance. */
function controlPaymentRun(state: SapState, { body }: Request): Answer {
  const payload = readJson(body);
  const invoices = payload?.invoices;
  if (!Array.isArray(invoices)) return { status: 400, body: { message: 'invoices: lista requerida' } };
  const isDate = (value: unknown) => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value);
  for (const entry of invoices as Record<string, unknown>[]) {
    if (typeof entry.supplierId !== 'string' || typeof entry.invoiceId !== 'string' || !isDate(entry.scheduledAt))
      return { status: 400, body: { message: 'cada pago requiere supplierId, invoiceId y scheduledAt' } };
    if (entry.paidAt != null && !isDate(entry.paidAt))
      return { status: 400, body: { message: 'paidAt: fecha yyyy-mm-dd' } };
    if (entry.paymentMethod != null && !(String(entry.paymentMethod) in PAYMENT_METHODS))
      return {
        status: 400,
        body: { message: `paymentMethod: uno de ${Object.keys(PAYMENT_METHODS).join(', ')}` },
      };
    if (entry.paidAmount != null && !(typeof entry.paidAmount === 'number' && entry.paidAmount > 0))
      return { status: 400, body: { message: 'paidAmount: importe positivo' } };
  }
  for (const entry of invoices as Record<string, unknown>[]) {
    // Strictly increasing change times, so a cursor never skips an entry recorded in the same ms.
    record(state, {
      kind: 'payment-run',
      entry: {
        supplierId: entry.supplierId as string,
        invoiceId: entry.invoiceId as string,
        invoiceType: typeof entry.invoiceType === 'string' ? entry.invoiceType : null,
        scheduledAt: (entry.scheduledAt as string).slice(0, 10),
        paidAt: typeof entry.paidAt === 'string' ? entry.paidAt.slice(0, 10) : null,
        changedAt: Math.max(state.now().getTime(), state.lastChange + 1),
        // A paid item has its payment document: the one given, or the next of the run's numbering.
        payment:
          typeof entry.paidAt === 'string'
            ? {
                document:
                  typeof entry.paymentDocument === 'string' ? entry.paymentDocument : String(++state.paymentNumber),
                fiscalYear: entry.paidAt.slice(0, 4),
                method: typeof entry.paymentMethod === 'string' ? entry.paymentMethod : 'T',
                methodName: PAYMENT_METHODS[typeof entry.paymentMethod === 'string' ? entry.paymentMethod : 'T']!,
                amount: typeof entry.paidAmount === 'number' ? entry.paidAmount : null,
                currency: typeof entry.currency === 'string' ? entry.currency : null,
              }
            : null,
      },
    });
  }
  return { status: 201, body: { recorded: invoices.length } };
}

/** POST /__control/schedules/{id}: runs a scheduled job of the stage now. */
function controlRunSchedule(state: SapState, { params }: Request): Answer {
  const id = params[0]!;
  const runner = state.scheduleRunner;
  if (!runner) return { status: 503, body: { message: 'sin tareas programadas' } };
  const runs = state.scheduleRuns.get(id) ?? { started: 0, completed: 0, lastError: null };
  state.scheduleRuns.set(id, runs);
  runs.started += 1;
  const run = runs.started;
  runner(id).then(
    () => {
      runs.completed = Math.max(runs.completed, run);
      runs.lastError = null;
    },
    (error: unknown) => {
      runs.completed = Math.max(runs.completed, run);
      runs.lastError = error instanceof Error ? error.message : String(error);
    },
  );
  return { status: 202, body: { id, run } };
}

/** GET /__control/schedules/{id}: how many runs started and completed, and the last error. */
function controlScheduleState(state: SapState, { params }: Request): Answer {
  return {
    status: 200,
    body: { id: params[0], ...(state.scheduleRuns.get(params[0]!) ?? { started: 0, completed: 0, lastError: null }) },
  };
}
