import { randomBytes } from 'node:crypto';
import { clock } from '../adapters/clock.js';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { makeConversations } from '../repositories/conversations.js';
import { makeInvoiceStore } from '../repositories/invoice-store.js';
import { makeConversationUseCases } from './conversations.js';
import { outgoing } from './outgoing.factory.js';

/**
 * The documents bucket only where the route uses it (posting, a file link): the listing and the count run without
 * its environment, so the uploads are built on first use.
 */
const uploads = () => import('./uploads.factory.js').then((module) => module.uploads);

/** The conversation use cases wired to the real adapters, built once per cold start by the handlers. */
export const conversations = makeConversationUseCases({
  store: makeInvoiceStore(documentClient, tableName()),
  conversations: makeConversations(documentClient, tableName()),
  outgoing,
  verifyAttachment: async (key, tenants, position) => (await uploads()).verifyMessageAttachment(key, tenants, position),
  downloadLink: async (key, fileName) => (await uploads()).downloadLink(key, fileName),
  clock,
  randomHex: () => randomBytes(4).toString('hex'),
});
