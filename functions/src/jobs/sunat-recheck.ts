import type { Logger } from '@aws-lambda-powertools/logger';
import { sunatRecheckSeconds, type SunatValidationMessage } from '@portal/shared';
import type { InvoiceStore } from '../repositories/invoice-store.js';
import { outgoingMessage, type Outgoing } from '../repositories/outgoing.js';
import type { SunatCheckRecord, SunatChecks } from '../repositories/sunat-checks.js';

export interface SunatRecheckDeps {
  readonly checks: Pick<SunatChecks, 'due' | 'get' | 'postpone' | 'close' | 'redrive'>;
  readonly invoices: Pick<InvoiceStore, 'get'>;
  readonly outgoing: Pick<Outgoing, 'isLive' | 'deliver'>;
  readonly clock: () => Date;
  readonly log: Pick<Logger, 'info' | 'error'>;
  /** The first wait (SUNAT_CHECK.staleAfterSeconds, or the stage's SUNAT_RECHECK_SECONDS), doubling per re-send. */
  readonly baseSeconds: number;
  /** Checks looked at per run (the next run takes the rest). @default 100 */
  readonly batch?: number;
}

export interface SunatRecheckResult {
  /** SUNAT messages sent again: the one on record was lost, abandoned by the relay, or never written. */
  readonly resent: number;
  /** Checks whose message is still on its way: looked at again later. */
  readonly waiting: number;
  /** Checks of invoices that no longer wait for SUNAT, closed. */
  readonly closed: number;
}

/**
 * The outbox sweeper's SUNAT step: no invoice waits for SUNAT with nothing coming. For each check due:
 * 1. read it again; moved since the index was read (a verdict, a staff request, another run): nothing to do;
 * 2. the invoice no longer waits (certStatus not PENDING, or gone): close the check;
 * 3. its SUNAT message is still on its way (outgoing item there, not abandoned by the relay: the relay and
 *    SQS's redelivery are at it, SUNAT may be down): look again after the current wait;
 * 4. else (lost with the SQS stand-in's restart, abandoned after its relays, never written as with the seed):
 *    commit a new message with the check, conditioned on the check as read (two runs never both send), and send
 *    it; the next look doubles the wait, so a SUNAT that stays down is asked ever less often, never never.
 * A check that could not be handled is left for the next run; the run reports how many.
 */
export function makeSunatRecheck(deps: SunatRecheckDeps) {
  const { checks, invoices, outgoing, clock, log } = deps;
  const wait = (redrives: number) => sunatRecheckSeconds(redrives, deps.baseSeconds) * 1000;

  async function recheckOne(seen: SunatCheckRecord, now: Date): Promise<keyof SunatRecheckResult | null> {
    const check = await checks.get(seen);
    if (!check || check.state !== 'OPEN' || check.gsi1sk !== seen.gsi1sk) return null;
    const invoice = await invoices.get(check.supplierId, check.invoiceType, check.invoiceId);
    if (!invoice || invoice.certStatus !== 'PENDING') {
      return (await checks.close(check, now)) ? 'closed' : null;
    }
    const redrives = check.redrives ?? 0;
    if (check.outgoingId && (await outgoing.isLive('sunatValidation', check.outgoingId))) {
      return (await checks.postpone(check, new Date(now.getTime() + wait(redrives)))) ? 'waiting' : null;
    }
    const body: SunatValidationMessage = {
      supplierId: invoice.supplierId,
      invoiceType: invoice.type,
      invoiceId: invoice.id,
    };
    const message = outgoingMessage('sunatValidation', body, now);
    if (!(await checks.redrive(check, message, new Date(now.getTime() + wait(redrives + 1))))) return null;
    log.info('SUNAT check sent again', { check: check.pk, lostMessage: check.outgoingId, redrives: redrives + 1 });
    // Sent now; if the send fails, the committed item stays for the relay.
    await outgoing.deliver([message]);
    return 'resent';
  }

  return {
    /** One pass over the checks due now; throws at the end (after the others) if some could not be handled. */
    async sweep(): Promise<SunatRecheckResult> {
      const now = clock();
      const counts = { resent: 0, waiting: 0, closed: 0 };
      const problems: Error[] = [];
      for (const check of await checks.due(now, deps.batch ?? 100)) {
        try {
          const outcome = await recheckOne(check, now);
          if (outcome) counts[outcome] += 1;
        } catch (error) {
          problems.push(error as Error);
          log.error('SUNAT check left for the next run', { check: check.pk, error: (error as Error).message });
        }
      }
      if (problems.length > 0)
        throw new AggregateError(problems, `${problems.length} SUNAT check(s) left for the next run`);
      return counts;
    },
  };
}

export type SunatRecheck = ReturnType<typeof makeSunatRecheck>;
