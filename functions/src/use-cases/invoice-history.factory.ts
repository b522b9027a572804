import { documentClient, tableName } from '../adapters/dynamodb.js';
import { makeInvoiceAuditRepository } from '../repositories/invoice-audit.js';
import { makeInvoiceStore } from '../repositories/invoice-store.js';
import type { InvoiceHistoryDeps } from './invoice-history.js';

/** The invoice history's real adapters, built once per cold start. */
export const invoiceHistoryDeps: InvoiceHistoryDeps = {
  store: makeInvoiceStore(documentClient, tableName()),
  trail: makeInvoiceAuditRepository(documentClient, tableName()),
};
