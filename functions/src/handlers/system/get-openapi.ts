import { buildOpenApi, systemRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';

const document = buildOpenApi();

export const handler = httpHandler(systemRoutes.openapi, async () => document);
