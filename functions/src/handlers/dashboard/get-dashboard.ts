import { dashboardRoutes } from '@portal/shared';
import { clock } from '../../adapters/clock.js';
import { documentClient, tableName } from '../../adapters/dynamodb.js';
import { httpHandler } from '../../http/wrapper.js';
import { makeClientRepository } from '../../repositories/clients.js';
import { makeDashboardRepository } from '../../repositories/dashboard.js';
import { makeGetDashboard } from '../../use-cases/dashboard.js';
import { makeMiroOutbox } from '../../repositories/miro-outbox.js';

const getDashboard = makeGetDashboard({
  dashboard: makeDashboardRepository(documentClient, tableName()),
  clients: makeClientRepository(documentClient, tableName()),
  postings: makeMiroOutbox(documentClient, tableName()),
  clock,
});

export const handler = httpHandler(dashboardRoutes.getDashboard, ({ caller, query }) => getDashboard(caller, query));
