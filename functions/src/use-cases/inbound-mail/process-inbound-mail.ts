import { randomUUID } from 'node:crypto';
import type { InboundMailMessage } from '@portal/shared';
import { JOB_LEASE_MS } from '../../jobs/job-leases.js';
import { endMailFailed, type MailOutcome } from '../../mail/mail-job.js';
import { LeaseLostError, holdLease } from '../lease-holder.js';
import type { InboundMailDeps } from './inbound-mail-deps.js';
import { finishEnded, finishMail } from './mail-finish.js';
import { runMail } from './mail-run.js';

/**
 * Invoices by e-mail (docs/adr/0035-mail-intake.md): one delivery of a received message (mail-run.ts says what a run
 * does with it). The raw message is deleted at the end; its record makes a redelivery register and answer nothing
 * again. `lastAttempt`: the queue will not deliver it again, so a failure ends it FAILED (the sender told what was
 * registered). BUSY: another run holds it (if that run stops, the sweeper resumes it).
 *
 * A run holds the message's lease and renews it while it works (docs/intake-channels.md#lease-and-resume); each
 * document's result is recorded as soon as it is known. A run that stops lets the lease lapse, and the outbox sweeper
 * hands the message to a worker again, whose run resumes it: the documents recorded are skipped, one whose invoice was
 * committed but whose result was not finds its invoice again through its sourceKey, and the answer says it resumed.
 */
export async function processInboundMail(
  deps: InboundMailDeps,
  message: InboundMailMessage,
  lastAttempt = false,
): Promise<MailOutcome | 'GONE' | 'BUSY'> {
  const leaseMs = deps.leaseMs ?? JOB_LEASE_MS;
  const existing = await deps.processed.get(message.messageId);
  if (existing?.state === 'DONE') return finishMail(deps, message, existing);

  const owner = deps.runId?.() ?? randomUUID();
  const until = new Date(deps.clock().getTime() + leaseMs).toISOString();
  const { taken, attempts } = await deps.processed.start(message, owner, deps.clock(), until);
  if (taken === 'ENDED') return finishEnded(deps, message);
  if (taken === 'BUSY') return 'BUSY';
  if (taken === 'RESUMED') {
    deps.log.info('Inbound e-mail resumed: the run before stopped', { messageId: message.messageId, attempts });
  }
  const lease = holdLease(
    (leaseUntil) => deps.processed.renew(message.messageId, owner, leaseUntil),
    deps.clock,
    leaseMs,
  );
  try {
    return await runMail(deps, { message, owner, resumed: taken === 'RESUMED', lease: lease.state });
  } catch (error) {
    lease.stop();
    if (error instanceof LeaseLostError) return 'BUSY';
    if (lastAttempt || attempts >= deps.maxAttempts) {
      const record = await deps.processed.get(message.messageId);
      if (record && (await endMailFailed(deps, record, { owner }, deps.clock()))) await finishEnded(deps, message);
    } else {
      // The next try need not wait for the lease to lapse.
      await deps.processed.release(message.messageId, owner, deps.clock().toISOString()).catch(() => undefined);
    }
    throw error;
  } finally {
    lease.stop();
  }
}
