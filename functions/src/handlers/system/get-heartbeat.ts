import { APP_VERSION, systemRoutes } from '@portal/shared';
import { clock } from '../../adapters/clock.js';
import { httpHandler } from '../../http/wrapper.js';

/** Liveness: the function runs; touches no dependency. */
export const handler = httpHandler(systemRoutes.heartbeat, async () => ({
  status: 'ok' as const,
  version: APP_VERSION,
  time: clock().toISOString(),
}));
