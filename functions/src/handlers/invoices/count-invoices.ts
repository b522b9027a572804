import { invoiceRoutes } from '@portal/shared';
import { documentClient, tableName } from '../../adapters/dynamodb.js';
import { httpHandler } from '../../http/wrapper.js';
import { makeInvoiceRepository } from '../../repositories/invoices.js';
import { makeCountInvoices } from '../../use-cases/list-invoices.js';

const countInvoices = makeCountInvoices({ invoices: makeInvoiceRepository(documentClient, tableName()) });

export const handler = httpHandler(invoiceRoutes.countInvoices, ({ caller, query }) => countInvoices(caller, query));
