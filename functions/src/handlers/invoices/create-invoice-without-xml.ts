import { invoiceRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { intake } from '../../use-cases/intake.factory.js';

export const handler = httpHandler(invoiceRoutes.createInvoiceWithoutXml, ({ caller, body }) =>
  intake.withoutXml(caller, body),
);
