import type { AcquirerConformity, AcquirerConformityState } from '../schemas/acquirer-conformity.js';
import type { Invoice } from '../schemas/invoices.js';
import { conformityStepAt, type ConformityStep } from '../rules/acquirer-conformity.js';
import { keys, type ItemKey } from './table.js';
import { toInvoiceParams, type InvoiceRefParams } from '../invoice-ref.js';

/**
 * The clock record of an invoice's Ley 29623 conformity (docs/data-design.md, "Acquirer conformity clocks"). The
 * invoice carries the clock people read (`acquirerConformity`); this record is what finds it: the scheduled job's
 * due list (byClient `ACQ_CONFORMITY#DUE`, while a step is left) and the list's filter by state and deadline, per
 * company (byClientSupplier) and per supplier (bySupplierStatus). Both are written in the same transactions;
 * `revision` goes up with every write of the record, which each write is conditioned on.
 */
export interface ConformityClockRecord extends InvoiceRefParams {
  readonly pk: string;
  readonly sk: string;
  readonly client: string;
  readonly deadline: string;
  readonly state: AcquirerConformityState;
  /** The job's next step while OPEN; null once none is left. */
  readonly step: ConformityStep | null;
  /** When the next step is due (the byClient sort key's time); null with no step. */
  readonly nextAt: string | null;
  /** The reminders sent, in order. */
  readonly remindersSent: readonly ConformityStep[];
  readonly revision: number;
  readonly updatedAt: string;
}

export const conformityClockKeyOf = (invoice: Pick<Invoice, 'supplierId' | 'type' | 'id'>): ItemKey =>
  keys.acquirerConformity(invoice.supplierId, invoice.type, invoice.id);

/**
 * The record of an invoice's clock in a state: an OPEN clock keeps the step on record (the first reminder for a new
 * one) and is due when that step is; an answered or presumed one has no step and leaves the due list.
 */
export function conformityClockRecord(
  invoice: Pick<Invoice, 'supplierId' | 'type' | 'id' | 'client'>,
  conformity: Pick<AcquirerConformity, 'state' | 'deadline'>,
  progress: {
    readonly step?: ConformityStep | null;
    readonly remindersSent?: readonly ConformityStep[];
    readonly revision: number;
    readonly at: Date;
  },
): ConformityClockRecord & Record<string, unknown> {
  const key = conformityClockKeyOf(invoice);
  const step = conformity.state === 'OPEN' ? (progress.step === undefined ? 'REMIND_TWO_DAYS' : progress.step) : null;
  const nextAt = step ? conformityStepAt(conformity.deadline, step).toISOString() : null;
  const record: ConformityClockRecord = {
    ...key,
    ...toInvoiceParams(invoice),
    client: invoice.client,
    deadline: conformity.deadline,
    state: conformity.state,
    step,
    nextAt,
    remindersSent: [...(progress.remindersSent ?? [])],
    revision: progress.revision,
    updatedAt: progress.at.toISOString(),
  };
  return { ...record, ...keys.acquirerConformityIndexes(record) };
}
