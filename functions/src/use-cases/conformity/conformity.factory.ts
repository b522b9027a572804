import { documentClient, tableName } from '../../adapters/dynamodb.js';
import { makeClientRepository } from '../../repositories/clients.js';
import { makeConformityDocumentRepository } from '../../repositories/conformity-documents.js';
import { makeInvoiceStore } from '../../repositories/invoice-store.js';
import type { ConformityDeps } from './conformity-deps.js';

/** The HES/MIGO/OC use cases' real table, built once per cold start; each handler passes it to its use case. */
export const conformityDeps: ConformityDeps = {
  documents: makeConformityDocumentRepository(documentClient, tableName()),
  clients: makeClientRepository(documentClient, tableName()),
  invoices: makeInvoiceStore(documentClient, tableName()),
};
