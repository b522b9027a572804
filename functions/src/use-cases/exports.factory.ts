import { randomUUID } from 'node:crypto';
import { clock } from '../adapters/clock.js';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { makeExportJobRepository } from '../repositories/export-jobs.js';
import { makeInvoiceRepository } from '../repositories/invoices.js';
import { conformityDeps } from './conformity/conformity.factory.js';
import { listConformityDocuments } from './conformity/list-conformity-documents.js';
import { makeRequestExport } from './exports.js';
import { makeCountInvoices } from './list-invoices.js';
import { outgoing } from './outgoing.factory.js';

const countInvoices = makeCountInvoices({ invoices: makeInvoiceRepository(documentClient, tableName()) });

/**
 * POST /exports wired to the table and the exports queue. The caller's reach is checked by the list's own use case:
 * the invoices' count (which is also the export's total), a first HES or MIGO page (the company check); the
 * suppliers' list is an administrator's, which the route's roles and the list's already say.
 */
export const requestExport = makeRequestExport({
  jobs: makeExportJobRepository(documentClient, tableName()),
  outgoing,
  reach: async (caller, list, query) => {
    // The total is fixed at the request, and only an exact one: the file says whether it still held when made.
    if (list === 'invoices') {
      const { count, exact } = await countInvoices(caller, query as never);
      return exact ? count : null;
    }
    if (list === 'hes' || list === 'migo') {
      const first = { ...query, limit: 1 } as Parameters<typeof listConformityDocuments>[3];
      await listConformityDocuments(
        conformityDeps,
        caller,
        list === 'hes' ? 'SERVICE_SHEET' : 'MATERIAL_DOCUMENT',
        first,
      );
    }
    return null;
  },
  clock,
  newId: randomUUID,
});
