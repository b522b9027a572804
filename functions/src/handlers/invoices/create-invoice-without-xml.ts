import { invoiceRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { createInvoiceWithoutXml } from '../../use-cases/intake/create-invoice-without-xml.js';
import { intakeDeps } from '../../use-cases/intake/intake.factory.js';

export const handler = httpHandler(invoiceRoutes.createInvoiceWithoutXml, ({ caller, body }) =>
  createInvoiceWithoutXml(intakeDeps, caller, body),
);
