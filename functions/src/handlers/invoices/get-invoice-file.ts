import { uploadRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { invoiceFileLink } from '../../use-cases/uploads/download-link.js';
import { uploadsDeps } from '../../use-cases/uploads/uploads.factory.js';

export const handler = httpHandler(uploadRoutes.getInvoiceFile, ({ caller, path, query }) =>
  invoiceFileLink(uploadsDeps, caller, path, query),
);
