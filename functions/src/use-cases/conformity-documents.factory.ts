import { documentClient, tableName } from '../adapters/dynamodb.js';
import { makeClientRepository } from '../repositories/clients.js';
import { makeConformityDocumentRepository } from '../repositories/conformity-documents.js';
import { makeInvoiceStore } from '../repositories/invoice-store.js';
import { makeConformityDocuments } from './conformity-documents.js';

/** The HES/MIGO/OC use cases wired to the real table, built once per cold start by their handlers. */
export const conformityDocuments = makeConformityDocuments({
  documents: makeConformityDocumentRepository(documentClient, tableName()),
  clients: makeClientRepository(documentClient, tableName()),
  invoices: makeInvoiceStore(documentClient, tableName()),
});
