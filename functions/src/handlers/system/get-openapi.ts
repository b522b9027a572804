import { buildOpenApi, routes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';

const document = buildOpenApi();

export const handler = httpHandler(routes.openapi, async () => document);
