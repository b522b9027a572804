import {
  type ExportJob,
  type IntakeBatchSummary,
  type IntakeDocumentResult,
  type Invoice,
  formatErrorMessage,
} from '@portal/shared';
import { MOCK_SUPPLIERS } from './directory';

/** An export the mock provider follows: who asked, and how far it got (each read moves it on). */
export interface MockExport {
  readonly owner: string;
  job: ExportJob;
}

/** A zip of documents being processed: its results are revealed a third at a time, read after read. */
export interface MockIntakeBatch {
  readonly owner: string;
  batch: IntakeBatchSummary;
  readonly results: IntakeDocumentResult[];
  revealed: number;
}

/** What a zip of the company's documents became: its first invoices accepted, the last already there, one refused. */
export function mockIntakeResults(invoices: readonly Invoice[], company: string, at: Date): IntakeDocumentResult[] {
  const now = at.toISOString();
  const own = invoices.filter((invoice) => invoice.supplierId === company).slice(0, 5);
  const base = (invoice: Invoice) => `${invoice.supplierId}-${invoice.id}`;
  const orphan = `${company}-01-F001-00009999`;
  return [
    ...own.map((invoice, i): IntakeDocumentResult => {
      const existing = i === own.length - 1;
      return {
        base: base(invoice),
        files: [`${base(invoice)}.xml`, `${base(invoice)}.pdf`],
        outcome: existing ? 'ALREADY_EXISTS' : 'ACCEPTED',
        invoice: { supplierId: invoice.supplierId, invoiceType: invoice.type, invoiceId: invoice.id },
        reason: existing
          ? { code: 'ERROR_INVOICE_ALREADY_EXISTS', message: formatErrorMessage('ERROR_INVOICE_ALREADY_EXISTS') }
          : null,
        cdrWarning: null,
        recordedAt: now,
      };
    }),
    {
      base: orphan,
      files: [`${orphan}.pdf`],
      outcome: 'REFUSED',
      invoice: null,
      reason: {
        code: 'ERROR_ZIP_DOCUMENT_WITHOUT_XML',
        message: formatErrorMessage('ERROR_ZIP_DOCUMENT_WITHOUT_XML', { base: orphan, files: `${orphan}.pdf` }),
      },
      cdrWarning: null,
      recordedAt: now,
    },
  ];
}

/**
 * The supplier's zip of last week, processed; one of today, resumed after its worker stopped mid-way; and one refused
 * while its documents were read, two of them processed before.
 */
export function buildIntakeBatches(invoices: readonly Invoice[], today: Date): MockIntakeBatch[] {
  const company = MOCK_SUPPLIERS[0]!.taxId;
  const at = new Date(today.getTime() - 7 * 86_400_000);
  const results = mockIntakeResults(invoices, company, at);
  const count = (outcome: IntakeDocumentResult['outcome']) => results.filter((r) => r.outcome === outcome).length;
  return [
    {
      owner: 'proveedor',
      batch: {
        id: '4f7c2d1e-8a3b-4c5d-9e6f-1a2b3c4d5e6f',
        status: 'DONE',
        fileName: 'comprobantes-octubre.zip',
        company,
        counts: {
          total: results.length,
          processed: results.length,
          accepted: count('ACCEPTED'),
          alreadyExisting: count('ALREADY_EXISTS'),
          refused: count('REFUSED'),
        },
        progress: 1,
        error: null,
        createdAt: at.toISOString(),
        finishedAt: at.toISOString(),
        resumedAt: null,
      },
      results,
      revealed: results.length,
    },
    {
      owner: 'proveedor',
      batch: {
        id: '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d',
        status: 'PROCESSING',
        fileName: 'comprobantes-noviembre.zip',
        company,
        counts: { total: results.length, processed: 0, accepted: 0, alreadyExisting: 0, refused: 0 },
        progress: 0,
        error: null,
        createdAt: new Date(today.getTime() - 10 * 60_000).toISOString(),
        finishedAt: null,
        resumedAt: new Date(today.getTime() - 2 * 60_000).toISOString(),
      },
      results,
      revealed: 0,
    },
    {
      owner: 'proveedor',
      batch: {
        id: '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9',
        status: 'REFUSED',
        fileName: 'comprobantes-dañado.zip',
        company,
        counts: {
          total: results.length,
          processed: 2,
          accepted: results.slice(0, 2).filter((r) => r.outcome === 'ACCEPTED').length,
          alreadyExisting: results.slice(0, 2).filter((r) => r.outcome === 'ALREADY_EXISTS').length,
          refused: results.slice(0, 2).filter((r) => r.outcome === 'REFUSED').length,
        },
        progress: results.length === 0 ? 0 : 2 / results.length,
        error: { code: 'ERROR_ZIP_INVALID', message: formatErrorMessage('ERROR_ZIP_INVALID') },
        createdAt: new Date(today.getTime() - 3 * 86_400_000).toISOString(),
        finishedAt: new Date(today.getTime() - 3 * 86_400_000).toISOString(),
        resumedAt: null,
      },
      results,
      revealed: 2,
    },
  ];
}
