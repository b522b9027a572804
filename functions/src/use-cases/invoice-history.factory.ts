import { documentClient, tableName } from '../adapters/dynamodb.js';
import { makeInvoiceAuditRepository } from '../repositories/invoice-audit.js';
import { makeInvoiceStore } from '../repositories/invoice-store.js';
import { makeInvoiceHistory } from './invoice-history.js';

/** The invoice history wired to the real adapters, built once per cold start. */
export const invoiceHistory = makeInvoiceHistory({
  store: makeInvoiceStore(documentClient, tableName()),
  trail: makeInvoiceAuditRepository(documentClient, tableName()),
});
