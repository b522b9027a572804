import { clientRoutes } from '@portal/shared';
import { documentClient, tableName } from '../../adapters/dynamodb.js';
import { httpHandler } from '../../http/wrapper.js';
import { makeClientRepository } from '../../repositories/clients.js';

const clients = makeClientRepository(documentClient, tableName());

/** The group's companies: every signed-in user chooses among them (the client filter, the cards). */
export const handler = httpHandler(clientRoutes.listClients, async () => ({ items: await clients.listAll() }));
