import { randomBytes } from 'node:crypto';
import { clock } from '../../adapters/clock.js';
import { documentClient, tableName } from '../../adapters/dynamodb.js';
import { makeClientRepository } from '../../repositories/clients.js';
import { makeConversations } from '../../repositories/conversations.js';
import { makeInvoiceStore } from '../../repositories/invoice-store.js';
import type { ConversationDeps } from './conversation-deps.js';
import { outgoing } from '../outgoing.factory.js';

const clients = makeClientRepository(documentClient, tableName());

/**
 * The conversation's real adapters without the documents bucket: the listing, the count and the clearing of the
 * mark touch no file (conversation-files.factory.ts adds the attachment checks and links).
 */
export const conversationDeps: ConversationDeps = {
  store: makeInvoiceStore(documentClient, tableName()),
  conversations: makeConversations(documentClient, tableName()),
  outgoing,
  allCompanies: async () => (await clients.listAll()).map((client) => client.taxId),
  clock,
  randomHex: () => randomBytes(4).toString('hex'),
};
