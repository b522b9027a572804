import { APP_VERSION, systemRoutes } from '@portal/shared';
import { clock } from '../../adapters/clock.js';
import { documentClient, tableName } from '../../adapters/dynamodb.js';
import { httpHandler } from '../../http/wrapper.js';
import { makeHealthProbe } from '../../repositories/health.js';

const probe = makeHealthProbe(documentClient, tableName());

/** Readiness: answers ok only when the table can be read. */
export const handler = httpHandler(systemRoutes.healthcheck, async () => {
  await probe();
  return { status: 'ok' as const, version: APP_VERSION, time: clock().toISOString() };
});
