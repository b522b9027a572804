import { ConflictError, keys, type InvoiceDetail } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { loadInvoiceInReach, type InvoicePath } from '../invoice-access.js';
import { miroRequestMessage } from '../miro/miro-request.js';
import { MIRO_TIMING } from '../miro/miro-timing.js';
import { invoiceDetail } from './invoice-detail.js';
import type { DetailDeps, ReviewDeps } from './review-deps.js';
import { actorOf, withoutVersion } from './review-steps.js';

export type RetrySapPostingDeps = DetailDeps & Pick<ReviewDeps, 'outgoing' | 'miro' | 'miroGraceMs' | 'log'>;

/**
 * An administrator's retry of a FAILED SAP posting: a new round of attempts, its MIRO request committed
 * with the change and sent. Idempotent: a posting already under way (PENDING, POSTING — another
 * administrator's retry among them) is left as it is and shown; a POSTED one or none is a 409.
 */
export async function retrySapPosting(
  deps: RetrySapPostingDeps,
  caller: Caller,
  path: InvoicePath,
): Promise<InvoiceDetail> {
  const { store, clock, miro } = deps;
  const invoice = await loadInvoiceInReach(store, caller, path);
  const key = keys.miroOutbox(invoice.supplierId, invoice.type, invoice.id);
  const record = await miro.get(key);
  if (!record) throw new ConflictError('ERROR_SAP_POSTING_NOT_FOUND', { status: invoice.status });
  if (record.state === 'POSTED')
    throw new ConflictError('ERROR_SAP_POSTING_ALREADY_POSTED', { document: record.sapDocument?.number ?? '' });
  if (record.state === 'FAILED') {
    const message = miroRequestMessage(invoice, clock());
    const graceMs = deps.miroGraceMs ?? MIRO_TIMING.defaultGraceMs;
    if (await miro.retry(record, actorOf(caller), clock(), graceMs, message)) {
      deps.log.info('SAP posting retried', { outbox: key.pk, by: caller.sub });
      await deps.outgoing.deliver([message]);
    }
  }
  return invoiceDetail(deps, withoutVersion(await loadInvoiceInReach(store, caller, path)));
}
