import { ConflictError, INVOICE_STATUSES, type InvoiceMessages } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { loadInvoiceInReach, retryingInvoiceChange, type InvoicePath } from '../invoice-access.js';
import type { ConversationDeps } from './conversation-deps.js';
import { commitConversation } from './conversation-steps.js';
import { listInvoiceMessages } from './list-invoice-messages.js';

/** Staff take the mark off (nothing is asked of the supplier any more); 409 when it is not observed. */
export async function clearInvoiceObservation(
  deps: Pick<ConversationDeps, 'store' | 'conversations'>,
  caller: Caller,
  path: InvoicePath,
): Promise<InvoiceMessages> {
  await retryingInvoiceChange(async () => {
    const before = await loadInvoiceInReach(deps.store, caller, path);
    if (!before.observation) throw new ConflictError('ERROR_INVOICE_NOT_OBSERVED');
    await commitConversation(deps, caller, before, { kind: 'CLEAR' }, INVOICE_STATUSES, [], null);
  });
  return listInvoiceMessages(deps, caller, path);
}
