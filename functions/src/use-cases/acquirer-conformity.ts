import {
  ACQUIRER_CONFORMITY_HISTORY_TITLES,
  ACQUIRER_CONFORMITY_STATE_LABELS,
  BadRequestError,
  CONFORMITY_SCOPE_REASON_TEXTS,
  ConflictError,
  DISCONFORMITY_CAUSE_LABELS,
  INVOICE_STATUSES,
  allowedDecisions,
  answerableUntil,
  conformityScopeOf,
  formatDate,
  notificationAbout,
  openAcquirerConformity,
  type AcquirerAnswer,
  type AcquirerConformity,
  type Invoice,
  type InvoiceDetail,
  type RegisterAcquirerConformityBody,
} from '@portal/shared';
import { callerStamp } from './audit-stamp.js';
import type { Clock } from '../adapters/clock.js';
import type { Caller } from '../http/caller.js';
import {
  conformityClockKeyOf,
  conformityClockPut,
  conformityClockRecord,
  type ConformityClocks,
} from '../repositories/acquirer-conformity-clocks.js';
import type { InvoiceStore } from '../repositories/invoice-store.js';
import { outgoingItem, outgoingMessage, type Outgoing } from '../repositories/outgoing.js';
import { loadInvoiceInReach, retryingInvoiceChange, type InvoicePath } from './invoice-access.js';

/** The clock as stored: without what a read adds to it. */
function stored(conformity: AcquirerConformity): AcquirerConformity {
  const { daysLeft: _d, latestLegalDeadline: _l, answerableUntil: _a, ...rest } = conformity;
  return rest;
}

/**
 * The clock an invoice gets at its intake, and the record to write in the intake's transaction. A document sent
 * again after a rejection is the same SUNAT document: it keeps the clock it has (SUNAT's period does not restart).
 */
export function acquirerConformityAtIntake(
  invoice: Invoice,
  replacing: Pick<Invoice, 'acquirerConformity'> | null,
  now: Date,
): { readonly conformity: AcquirerConformity | null; readonly items: Record<string, unknown>[] } {
  if (replacing?.acquirerConformity) return { conformity: stored(replacing.acquirerConformity), items: [] };
  if (!conformityScopeOf(invoice).applies) return { conformity: null, items: [] };
  const conformity = openAcquirerConformity(invoice);
  return { conformity, items: [conformityClockRecord(invoice, conformity, { revision: 1, at: now })] };
}

export interface AcquirerConformityDeps {
  readonly store: Pick<InvoiceStore, 'get' | 'commit'>;
  readonly clocks: Pick<ConformityClocks, 'get'>;
  readonly outgoing: Pick<Outgoing, 'deliver'>;
  readonly clock: Clock;
  /** The invoice's detail as GET answers it, once registered. */
  readonly detail: (caller: Caller, path: InvoicePath) => Promise<InvoiceDetail>;
}

/** What the history and the supplier's notice say of a disconformity: its cause and the reason. */
function disconformityText(answer: Pick<AcquirerAnswer, 'cause' | 'reason'>): string {
  const cause = answer.cause ? `Causal: ${DISCONFORMITY_CAUSE_LABELS[answer.cause]}.` : '';
  return [cause, answer.reason ? `Motivo: ${answer.reason}` : ''].filter(Boolean).join(' ');
}

/**
 * Staff register what they answered on SUNAT's Plataforma de Confirmación (POST …/acquirer-conformity). Steps:
 * 1. the body is whole: a disconformity names its cause and reason, a conformity no cause;
 * 2. the invoice runs a clock, and that decision can still be registered: conformity is irrevocable, a second
 *    disconformity is refused, nothing after the period (two more days after a disconformity on the last day);
 * 3. one transaction writes the invoice (its clock, a history entry), the clock record (as read) and the supplier's
 *    notice (with the cause and reason of a disconformity), and the counters; the notice is then sent.
 * Two staff at once: one writes, the other reloads and is refused by step 2 (or registers conformity after the
 * other's disconformity).
 */
export async function registerAcquirerConformity(
  deps: AcquirerConformityDeps,
  caller: Caller,
  path: InvoicePath,
  body: RegisterAcquirerConformityBody,
): Promise<InvoiceDetail> {
  checkBody(body);
  const message = await retryingInvoiceChange(() => registerOnce(deps, caller, path, body));
  // Sent now; if the send fails, the committed item stays for the outbox sweeper.
  await deps.outgoing.deliver([message]);
  return deps.detail(caller, path);
}

function checkBody(body: RegisterAcquirerConformityBody): void {
  if (body.decision === 'CONFORMITY') {
    if (body.cause !== undefined) {
      throw new BadRequestError('ERROR_INVALID_PARAMETER', {
        parameter: 'cause',
        reason: 'solo corresponde a una disconformidad',
      });
    }
    return;
  }
  if (body.cause === undefined) throw new BadRequestError('ERROR_ACQUIRER_DISCONFORMITY_WITHOUT_CAUSE');
  if (!body.reason) throw new BadRequestError('ERROR_ACQUIRER_DISCONFORMITY_WITHOUT_REASON');
}

function refusal(conformity: AcquirerConformity, body: RegisterAcquirerConformityBody): ConflictError {
  const last = conformity.answers.at(-1);
  if (conformity.state === 'CONFORMITY' || conformity.state === 'PRESUMED_CONFORMITY') {
    return new ConflictError('ERROR_ACQUIRER_CONFORMITY_IRREVOCABLE', {
      state: ACQUIRER_CONFORMITY_STATE_LABELS[conformity.state].toLowerCase(),
      date: formatDate(conformity.state === 'CONFORMITY' ? last?.at : conformity.presumedAt),
    });
  }
  if (conformity.state === 'DISCONFORMITY' && body.decision === 'DISCONFORMITY') {
    return new ConflictError('ERROR_ACQUIRER_DISCONFORMITY_ALREADY_REGISTERED', { date: formatDate(last?.at) });
  }
  return new ConflictError('ERROR_ACQUIRER_CONFORMITY_PERIOD_ENDED', {
    deadline: formatDate(answerableUntil(conformity) ?? conformity.deadline),
  });
}

async function registerOnce(
  deps: AcquirerConformityDeps,
  caller: Caller,
  path: InvoicePath,
  body: RegisterAcquirerConformityBody,
) {
  const before = await loadInvoiceInReach(deps.store, caller, path);
  if (!before.acquirerConformity) {
    const scope = conformityScopeOf(before);
    throw new ConflictError('ERROR_ACQUIRER_CONFORMITY_NOT_APPLICABLE', {
      reason: scope.applies ? 'no tiene plazo de conformidad registrado' : CONFORMITY_SCOPE_REASON_TEXTS[scope.reason],
    });
  }
  const conformity = stored(before.acquirerConformity);
  const now = deps.clock();
  if (!allowedDecisions(conformity, now).includes(body.decision)) throw refusal(conformity, body);

  const by = caller.email || caller.sub;
  const answer: AcquirerAnswer = {
    decision: body.decision,
    cause: body.decision === 'DISCONFORMITY' ? (body.cause ?? null) : null,
    reason: body.reason || null,
    at: now.toISOString(),
    by,
  };
  const next: AcquirerConformity = { ...conformity, state: body.decision, answers: [...conformity.answers, answer] };
  const text = body.decision === 'DISCONFORMITY' ? disconformityText(answer) : answer.reason;
  const after: Invoice = {
    ...before,
    acquirerConformity: next,
    statusHistory: [
      ...before.statusHistory,
      {
        status: before.status,
        title: ACQUIRER_CONFORMITY_HISTORY_TITLES[body.decision],
        additionalMessage: text,
        date: answer.at,
        by,
      },
    ],
  };
  const notice = notificationAbout(
    body.decision === 'CONFORMITY' ? 'ACQUIRER_CONFORMITY_REGISTERED' : 'ACQUIRER_DISCONFORMITY_REGISTERED',
    after,
    body.decision === 'DISCONFORMITY' ? text : null,
    now,
  );
  const message = outgoingMessage('notifications', notice, now);
  const record = await deps.clocks.get(conformityClockKeyOf(before));
  await deps.store.commit({
    before,
    after,
    whileStatusIn: INVOICE_STATUSES,
    alsoPut: [outgoingItem(message)],
    audit: callerStamp(caller, 'ACQUIRER_ANSWER_REGISTERED', text),
    putIf: [
      conformityClockPut(
        record,
        conformityClockRecord(before, next, {
          remindersSent: record?.remindersSent ?? [],
          revision: (record?.revision ?? 0) + 1,
          at: now,
        }),
      ),
    ],
  });
  return message;
}
