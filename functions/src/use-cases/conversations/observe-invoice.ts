import type { PostedMessage } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import type { InvoicePath } from '../invoice-access.js';
import type { PostMessageBody } from './conversation-deps.js';
import { writeMessage, type WriteMessageDeps } from './write-message.js';

/** POST …/observe: staff mark an invoice in course observed, with a message saying what is asked (write-message.ts). */
export function observeInvoice(
  deps: WriteMessageDeps,
  caller: Caller,
  path: InvoicePath,
  body: PostMessageBody,
): Promise<PostedMessage> {
  return writeMessage(deps, caller, path, body, 'OBSERVE');
}
