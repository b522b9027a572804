import { randomUUID } from 'node:crypto';
import { systemStamp } from '../use-cases/audit-stamp.js';
import type { Logger } from '@aws-lambda-powertools/logger';
import {
  ACQUIRER_CONFORMITY_HISTORY_TITLES,
  CONFORMITY_PERIOD_DAYS,
  INVOICE_STATUSES,
  dueConformityStep,
  formatDate,
  notificationAbout,
  stepAfter,
  type AcquirerConformity,
  type ConformityStep,
  type Invoice,
  type NotificationMessage,
} from '@portal/shared';
import type { Clock } from '../adapters/clock.js';
import {
  conformityClockPut,
  conformityClockRecord,
  type ConformityClockRecord,
  type ConformityClocks,
} from '../repositories/acquirer-conformity-clocks.js';
import { InvoiceChangedError, type InvoiceStore } from '../repositories/invoice-store.js';
import { outgoingItem, outgoingMessage, type Outgoing } from '../repositories/outgoing.js';

export interface AcquirerConformityClockDeps {
  readonly clocks: Pick<ConformityClocks, 'due' | 'get' | 'remind' | 'align'>;
  readonly store: Pick<InvoiceStore, 'get' | 'commit'>;
  readonly outgoing: Pick<Outgoing, 'deliver'>;
  readonly clock: Clock;
  readonly log: Pick<Logger, 'info' | 'error'>;
  /** Clocks looked at per run (the next run takes the rest). @default 100 */
  readonly batch?: number;
}

export interface AcquirerConformityClockResult {
  /** Reminders sent to the invoices' staff (two days before, on the last day). */
  readonly reminded: number;
  /** Conformities presumed at the end of the last day, recorded in the invoices' history. */
  readonly presumed: number;
}

const REMINDER_EVENT: Record<Exclude<ConformityStep, 'PRESUME'>, NotificationMessage['event']> = {
  REMIND_TWO_DAYS: 'ACQUIRER_CONFORMITY_DUE_SOON',
  REMIND_LAST_DAY: 'ACQUIRER_CONFORMITY_DUE_TODAY',
};

/** How often a presumption is written again after another writer moved the invoice first. */
const MAX_ATTEMPTS = 5;

/**
 * The scheduled job of the Ley 29623 conformity clocks (SCHEDULES.acquirerConformity). For each clock due:
 * 1. read its record again; moved since the due list was read (an answer, another run): nothing to do;
 * 2. take the latest step whose time has come (a reminder whose day passed is not sent late);
 * 3. a reminder: the record moves to its next step with the reminder's notice committed beside it, conditioned on
 *    the record as read, so two runs at once send it once; the notice goes to the company's feed and by e-mail to
 *    the invoice's responsible (notifications worker);
 * 4. the presumption, at the end of the last day: one transaction writes the invoice (its clock presumed, a history
 *    entry), its record (as read), the counters and the notice to both sides.
 * Each step commits what it sends, so a run that dies leaves nothing half done: the next run finds the step still
 * due, or done. A clock that could not be handled is left for the next run, which the run's error reports: one pass
 * over the clocks due now throws at the end (after the others) if some could not be handled.
 */
export async function runAcquirerConformityClock(
  deps: AcquirerConformityClockDeps,
  txId: string = randomUUID(),
): Promise<AcquirerConformityClockResult> {
  const now = deps.clock();
  const counts = { reminded: 0, presumed: 0 };
  const problems: Error[] = [];
  for (const record of await deps.clocks.due(now, deps.batch ?? 100)) {
    try {
      const outcome = await stepOne(deps, record, now, txId);
      if (outcome) counts[outcome] += 1;
    } catch (error) {
      problems.push(error as Error);
      deps.log.error('conformity clock left for the next run', { clock: record.pk, error: (error as Error).message });
    }
  }
  if (problems.length > 0) {
    throw new AggregateError(problems, `${problems.length} conformity clock(s) left for the next run`);
  }
  return counts;
}

/**
 * A record that says the clock runs when its invoice says otherwise (gone, answered, presumed) is brought in line
 * with the invoice, out of the due list; nothing is sent.
 */
async function lagging(
  deps: AcquirerConformityClockDeps,
  record: ConformityClockRecord,
  invoice: Invoice | null,
  now: Date,
): Promise<boolean> {
  const conformity = invoice?.acquirerConformity;
  if (conformity?.state === 'OPEN') return false;
  let next: Record<string, unknown>;
  if (invoice && conformity) {
    next = conformityClockRecord(invoice, conformity, {
      remindersSent: record.remindersSent,
      revision: record.revision + 1,
      at: now,
    });
  } else {
    // No clock on the invoice (or no invoice): the record only leaves the due list.
    const { gsi1pk: _pk, gsi1sk: _sk, ...rest } = record as ConformityClockRecord & Record<string, unknown>;
    next = { ...rest, step: null, nextAt: null, revision: record.revision + 1, updatedAt: now.toISOString() };
  }
  if (await deps.clocks.align(record, next))
    deps.log.info('conformity clock record aligned with its invoice', { clock: record.pk });
  return true;
}

async function remind(
  deps: AcquirerConformityClockDeps,
  record: ConformityClockRecord,
  step: Exclude<ConformityStep, 'PRESUME'>,
  now: Date,
): Promise<boolean> {
  const invoice = await deps.store.get(record.supplierId, record.invoiceType, record.invoiceId);
  if (!invoice?.acquirerConformity || (await lagging(deps, record, invoice, now))) return false;
  const notice: NotificationMessage = {
    ...notificationAbout(REMINDER_EVENT[step], invoice, record.deadline, now),
    responsibleId: invoice.responsible?.id ?? null,
  };
  const message = outgoingMessage('notifications', notice, now);
  const next = conformityClockRecord(invoice, invoice.acquirerConformity, {
    step: stepAfter(step),
    remindersSent: [...(record.remindersSent ?? []), step],
    revision: record.revision + 1,
    at: now,
  });
  if (!(await deps.clocks.remind(record, next, message))) return false;
  deps.log.info('conformity reminder committed', { clock: record.pk, step });
  await deps.outgoing.deliver([message]);
  return true;
}

async function presume(
  deps: AcquirerConformityClockDeps,
  seen: ConformityClockRecord,
  now: Date,
  txId: string,
): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    const record = attempt === 1 ? seen : await deps.clocks.get(seen);
    if (!record || record.state !== 'OPEN' || record.revision !== seen.revision) return false;
    const invoice = await deps.store.get(record.supplierId, record.invoiceType, record.invoiceId);
    const conformity = invoice?.acquirerConformity;
    if (!invoice || !conformity || conformity.state !== 'OPEN') {
      await lagging(deps, record, invoice, now);
      return false;
    }
    const presumed: AcquirerConformity = {
      ...conformity,
      state: 'PRESUMED_CONFORMITY',
      presumedAt: now.toISOString(),
    };
    const after: Invoice = {
      ...invoice,
      acquirerConformity: presumed,
      statusHistory: [
        ...invoice.statusHistory,
        {
          status: invoice.status,
          title: ACQUIRER_CONFORMITY_HISTORY_TITLES.PRESUMED_CONFORMITY,
          additionalMessage:
            `Venció el ${formatDate(conformity.deadline)} el plazo de ${CONFORMITY_PERIOD_DAYS} días sin una ` +
            'conformidad o disconformidad registrada: la conformidad se presume y es irrevocable.',
          date: now.toISOString(),
          by: null,
        },
      ],
    };
    const message = outgoingMessage(
      'notifications',
      notificationAbout('ACQUIRER_CONFORMITY_PRESUMED', invoice, conformity.deadline, now),
      now,
    );
    try {
      await deps.store.commit({
        before: invoice,
        after,
        whileStatusIn: INVOICE_STATUSES,
        alsoPut: [outgoingItem(message)],
        audit: systemStamp('conformityClock', 'PRESUMED_CONFORMITY', txId),
        putIf: [
          conformityClockPut(
            record,
            conformityClockRecord(invoice, presumed, {
              remindersSent: record.remindersSent ?? [],
              revision: record.revision + 1,
              at: now,
            }),
          ),
        ],
      });
    } catch (error) {
      // Another writer moved the invoice or the record: read both again (a run that got there first ends it).
      if (error instanceof InvoiceChangedError && attempt < MAX_ATTEMPTS) continue;
      throw error;
    }
    deps.log.info('conformity presumed', { clock: record.pk, deadline: conformity.deadline });
    await deps.outgoing.deliver([message]);
    return true;
  }
}

async function stepOne(
  deps: AcquirerConformityClockDeps,
  seen: ConformityClockRecord,
  now: Date,
  txId: string,
): Promise<keyof AcquirerConformityClockResult | null> {
  const record = await deps.clocks.get({ pk: seen.pk, sk: seen.sk });
  if (!record || record.state !== 'OPEN' || !record.step || record.revision !== seen.revision) return null;
  const step = dueConformityStep(record.deadline, record.step, now);
  if (step === null) return null;
  if (step === 'PRESUME') return (await presume(deps, record, now, txId)) ? 'presumed' : null;
  return (await remind(deps, record, step, now)) ? 'reminded' : null;
}
