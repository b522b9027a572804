import { invoiceRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { createInvoiceFromXml } from '../../use-cases/intake/create-invoice-from-xml.js';
import { intakeDeps } from '../../use-cases/intake/intake.factory.js';

export const handler = httpHandler(invoiceRoutes.createInvoiceFromXml, ({ caller, body }) =>
  createInvoiceFromXml(intakeDeps, caller, body),
);
