import {
  type IntakeBatchSummary,
  type IntakeDocumentResult,
  ConflictError,
  ForbiddenError,
  NotFoundError,
} from '@portal/shared';
import { MOCK_SUPPLIERS } from './directory';
import { mockIntakeResults } from './intake-batches';
import { paginate, signedIn, type MockRoutes } from './context';
import { filteredInvoices, type InvoiceFilterQuery } from './invoices';

/** The long jobs: the lists' exports and the zips of documents, each moving on as it is read. */
export const JOB_ROUTES = {
  createExport: (context) => {
    const persona = signedIn(context.persona);
    const { list, format, filters } = context.body;
    const staffList = list === 'hes' || list === 'migo';
    if ((list === 'suppliers' && persona.user.level !== 'ADMIN') || (staffList && persona.user.level === 'SUPPLIER')) {
      throw new ForbiddenError('ERROR_EXPORT_LIST_NOT_ALLOWED', { list });
    }
    const running = context.world.exports.filter(
      (each) => each.owner === persona.id && (each.job.status === 'QUEUED' || each.job.status === 'RUNNING'),
    );
    if (running.length >= 3) throw new ConflictError('ERROR_TOO_MANY_EXPORTS', { limit: 3 });
    const total =
      list === 'invoices'
        ? filteredInvoices(context, filters as InvoiceFilterQuery).length
        : list === 'suppliers'
          ? null
          : (list === 'hes' ? context.world.serviceSheets : context.world.materialDocs).filter(
              (document) => document.acquirerTaxId === (filters.acquirer ?? context.company),
            ).length;
    const titles = {
      invoices: 'Comprobantes',
      hes: 'Conformidades HES',
      migo: 'Conformidades MIGO',
      suppliers: 'Proveedores',
    };
    const job = {
      id: crypto.randomUUID(),
      list,
      format,
      status: 'QUEUED' as const,
      rows: 0,
      total,
      totalChanged: false,
      progress: total === null ? null : 0,
      fileName: `${titles[list]} ${context.now.toISOString().slice(0, 10)}.${format}`,
      url: null,
      createdAt: context.now.toISOString(),
      finishedAt: null,
      resumedAt: null,
    };
    context.world.exports.push({ owner: persona.id, job });
    return job;
  },
  createIntakeBatch: (context) => {
    const persona = signedIn(context.persona);
    const owned = context.world.intakeBatches.filter((each) => each.owner === persona.id);
    if (owned.filter((each) => each.batch.status === 'QUEUED' || each.batch.status === 'PROCESSING').length >= 3) {
      throw new ConflictError('ERROR_TOO_MANY_INTAKE_BATCHES', { limit: 3 });
    }
    const company = context.company ?? MOCK_SUPPLIERS[0]!.taxId;
    const fileName = context.body.url.split('/').pop()?.replace(/^\d+-/, '') || 'comprobantes.zip';
    const now = context.now.toISOString();
    const results = mockIntakeResults(context.world.invoices, company, context.now);
    const batch: IntakeBatchSummary = {
      id: crypto.randomUUID(),
      status: 'QUEUED',
      fileName,
      company,
      counts: { total: null, processed: 0, accepted: 0, alreadyExisting: 0, refused: 0 },
      progress: null,
      error: null,
      createdAt: now,
      finishedAt: null,
      resumedAt: null,
    };
    context.world.intakeBatches.unshift({ owner: persona.id, batch, results, revealed: 0 });
    return batch;
  },
  getIntakeBatch: (context) => {
    const persona = signedIn(context.persona);
    const found = context.world.intakeBatches.find(
      (each) => each.batch.id === context.path.batchId && (each.owner === persona.id || persona.user.level === 'ADMIN'),
    );
    if (!found) throw new NotFoundError('ERROR_INTAKE_BATCH_NOT_FOUND');
    // Each read moves the batch on: the zip opened, then a third of the documents at a time, then done.
    const total = found.results.length;
    if (found.batch.status === 'QUEUED') {
      found.batch = { ...found.batch, status: 'PROCESSING', counts: { ...found.batch.counts, total }, progress: 0 };
    } else if (found.batch.status === 'PROCESSING') {
      found.revealed = Math.min(total, found.revealed + Math.ceil(total / 3));
      const shown = found.results.slice(0, found.revealed);
      const count = (outcome: IntakeDocumentResult['outcome']) => shown.filter((r) => r.outcome === outcome).length;
      const done = found.revealed >= total;
      found.batch = {
        ...found.batch,
        status: done ? 'DONE' : 'PROCESSING',
        counts: {
          total,
          processed: shown.length,
          accepted: count('ACCEPTED'),
          alreadyExisting: count('ALREADY_EXISTS'),
          refused: count('REFUSED'),
        },
        progress: total === 0 ? 0 : shown.length / total,
        finishedAt: done ? context.now.toISOString() : null,
      };
    }
    return { ...found.batch, results: paginate(found.results.slice(0, found.revealed), context.query) };
  },
  listIntakeBatches: (context) => {
    const persona = signedIn(context.persona);
    return {
      items: context.world.intakeBatches.filter((each) => each.owner === persona.id).map((each) => each.batch),
    };
  },
  getExport: (context) => {
    const persona = signedIn(context.persona);
    const found = context.world.exports.find(
      (each) => each.owner === persona.id && each.job.id === context.path.exportId,
    );
    if (!found) throw new NotFoundError('ERROR_EXPORT_NOT_FOUND');
    // Each read moves the export on: queued, then a third of the rows at a time, then ready.
    const { job } = found;
    if (job.status === 'QUEUED' || job.status === 'RUNNING') {
      const total = job.total ?? context.world.externalUsers.length;
      const rows = job.status === 'QUEUED' ? 0 : Math.min(total, job.rows + Math.ceil(total / 3));
      const ready = job.status === 'RUNNING' && rows >= total;
      found.job = {
        ...job,
        status: ready ? 'READY' : 'RUNNING',
        rows,
        progress: ready ? 1 : job.total === null ? null : total === 0 ? 0 : rows / total,
        finishedAt: ready ? context.now.toISOString() : null,
      };
    }
    const url = found.job.status === 'READY' ? `${context.filesUrl}/${encodeURIComponent(found.job.fileName)}` : null;
    return { ...found.job, url };
  },
} satisfies Partial<MockRoutes>;
