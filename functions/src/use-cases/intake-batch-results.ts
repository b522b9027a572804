import { counted, type IntakeDocumentResult, type IntakeOutcome } from '@portal/shared';
import type { ZipDocument } from '../intake/zip-documents.js';
import type { StoredIntakeBatch } from '../repositories/intake-batches.js';
import type { FileIntakeOutcome } from './intake/intake-deps.js';
import type { BatchNotice, IntakeBatchRunnerDeps } from './intake-batch-runner-deps.js';

const NO_OUTCOMES: Readonly<Record<IntakeOutcome, number>> = { ACCEPTED: 0, ALREADY_EXISTS: 0, REFUSED: 0 };

/**
 * The results recorded since the counters were last written, written at most once per interval, one write at a
 * time; `flush` writes what is left (before `finish`, which counts the results again and must come last).
 */
export function progressOf(batches: IntakeBatchRunnerDeps['batches'], batchId: string, intervalMs: number) {
  let pending = { ...NO_OUTCOMES };
  let writing: Promise<void> | null = null;
  let lastWrite = 0;
  const write = () => {
    const outcomes = pending;
    pending = { ...NO_OUTCOMES };
    lastWrite = Date.now();
    writing = batches.addCounts(batchId, outcomes).finally(() => {
      writing = null;
    });
    return writing;
  };
  return {
    /** Counts a recorded result; the write it may start is awaited (a failure fails the run, as before). */
    async add(outcome: IntakeOutcome): Promise<void> {
      pending = { ...pending, [outcome]: pending[outcome] + 1 };
      if (!writing && Date.now() - lastWrite >= intervalMs) await write();
    },
    async flush(): Promise<void> {
      if (writing) await writing;
      if (Object.values(pending).some((count) => count > 0)) await write();
    },
  };
}

/** The uploader's notice of a batch that ended. */
export function batchNotice(batch: StoredIntakeBatch): BatchNotice {
  const name = `«${batch.fileName}»`;
  if (batch.status === 'DONE') {
    return {
      batch,
      id: `intake-batch-${batch.id}-done`,
      subject: `Portal de Proveedores · Carga de ZIP ${batch.fileName}`,
      text:
        `Se procesó su ZIP ${name}: ${counted(batch.accepted, { one: 'comprobante aceptado', other: 'comprobantes aceptados' })}, ` +
        `${counted(batch.alreadyExisting, { one: 'ya existía', other: 'ya existían' })} y ` +
        `${counted(batch.refused, { one: 'rechazado', other: 'rechazados' })}. Vea el detalle en Mis comprobantes › Cargas de ZIP.`,
    };
  }
  return {
    batch,
    id: `intake-batch-${batch.id}-${batch.status.toLowerCase()}`,
    subject: `Portal de Proveedores · Carga de ZIP ${batch.fileName}`,
    text: `No se procesó su ZIP ${name}: ${batch.error?.message ?? ''}`.trim(),
  };
}

export function resultOf(
  document: Extract<ZipDocument, { ok: true }>,
  outcome: FileIntakeOutcome,
  documentOf: IntakeBatchRunnerDeps['documentOf'],
  now: string,
): IntakeDocumentResult {
  const files = [document.xml.name, document.pdf?.name, document.cdr?.name].filter((name) => name !== undefined);
  const common = { base: document.base, files, recordedAt: now };
  switch (outcome.outcome) {
    case 'ACCEPTED':
      return {
        ...common,
        outcome: 'ACCEPTED',
        invoice: {
          supplierId: outcome.invoice.supplierId,
          invoiceType: outcome.invoice.type,
          invoiceId: outcome.invoice.id,
        },
        reason: null,
        cdrWarning: outcome.cdrWarning,
      };
    case 'ALREADY_EXISTS': {
      const found = documentOf(document.xml.bytes);
      return {
        ...common,
        outcome: 'ALREADY_EXISTS',
        invoice: found ? { supplierId: found.supplierId, invoiceType: found.type, invoiceId: outcome.invoiceId } : null,
        reason: { code: outcome.code, message: outcome.message },
        cdrWarning: null,
      };
    }
    case 'REFUSED':
      return {
        ...common,
        outcome: 'REFUSED',
        invoice: null,
        reason: { code: outcome.code, message: outcome.message },
        cdrWarning: null,
      };
  }
}
