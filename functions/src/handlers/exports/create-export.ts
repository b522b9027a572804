import { exportRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { requestExport } from '../../use-cases/exports.factory.js';

export const handler = httpHandler(exportRoutes.createExport, ({ caller, body }) => requestExport(caller, body));
