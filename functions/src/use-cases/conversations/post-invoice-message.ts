import type { PostedMessage } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import type { InvoicePath } from '../invoice-access.js';
import type { PostMessageBody } from './conversation-deps.js';
import { writeMessage, type WriteMessageDeps } from './write-message.js';

/** POST …/messages: a message on an invoice, to the other side (write-message.ts). */
export function postInvoiceMessage(
  deps: WriteMessageDeps,
  caller: Caller,
  path: InvoicePath,
  body: PostMessageBody,
): Promise<PostedMessage> {
  return writeMessage(deps, caller, path, body, 'MESSAGE');
}
