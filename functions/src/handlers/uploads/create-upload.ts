import { uploadRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { createUploadTicket } from '../../use-cases/uploads/create-upload-ticket.js';
import { uploadsDeps } from '../../use-cases/uploads/uploads.factory.js';

export const handler = httpHandler(uploadRoutes.createUpload, ({ caller, body }) =>
  createUploadTicket(uploadsDeps, caller, body),
);
