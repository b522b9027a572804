import { invoiceRoutes } from '@portal/shared';
import { clock } from '../../adapters/clock.js';
import { documentClient, tableName } from '../../adapters/dynamodb.js';
import { httpHandler } from '../../http/wrapper.js';
import { makeInvoiceRepository } from '../../repositories/invoices.js';
import { makeListInvoices } from '../../use-cases/list-invoices.js';

const listInvoices = makeListInvoices({ invoices: makeInvoiceRepository(documentClient, tableName()), clock });

export const handler = httpHandler(invoiceRoutes.listInvoices, ({ caller, query }) => listInvoices(caller, query));
