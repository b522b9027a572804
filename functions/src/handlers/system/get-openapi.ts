import { buildOpenApi, systemRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';

/**
 * Built by the first request of each instance, then kept: building it (every route's schemas to JSON Schema) took a
 * third of the module's load, which an instance paid at its cold start before serving anything, whatever it served.
 */
let document: ReturnType<typeof buildOpenApi> | undefined;

export const handler = httpHandler(systemRoutes.openapi, async () => (document ??= buildOpenApi()));
