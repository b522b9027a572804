import { routes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { uploads } from '../../use-cases/uploads.factory.js';

export const handler = httpHandler(routes.getInvoiceFile, ({ caller, path, query }) =>
  uploads.fileLink(caller, path, query),
);
