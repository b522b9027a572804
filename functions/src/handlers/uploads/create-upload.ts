import { uploadRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { uploads } from '../../use-cases/uploads.factory.js';

export const handler = httpHandler(uploadRoutes.createUpload, ({ caller, body }) => uploads.createTicket(caller, body));
