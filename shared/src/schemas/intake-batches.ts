import * as z from 'zod/mini';
import { TEXT_LIMITS } from '../limits.js';
import { IsoDateTime, listOf, pageOf } from './common.js';

// A zip of many documents (docs/intake-channels.md#zip): uploaded presigned, read by the intake-batches
// worker, one result per document kept with the batch.

export const INTAKE_BATCH_STATUSES = ['QUEUED', 'PROCESSING', 'DONE', 'REFUSED', 'FAILED'] as const;
export const IntakeBatchStatus = z.enum(INTAKE_BATCH_STATUSES);
export type IntakeBatchStatus = z.infer<typeof IntakeBatchStatus>;

export const INTAKE_OUTCOMES = ['ACCEPTED', 'ALREADY_EXISTS', 'REFUSED'] as const;
export const IntakeOutcome = z.enum(INTAKE_OUTCOMES);
export type IntakeOutcome = z.infer<typeof IntakeOutcome>;

/** POST /intake-batches: the key of a zip uploaded for the purpose INVOICE_ZIP. */
export const CreateIntakeBatchBody = z.strictObject({
  url: z.string().check(z.minLength(1), z.maxLength(TEXT_LIMITS.objectKey)),
});
export type CreateIntakeBatchBody = z.infer<typeof CreateIntakeBatchBody>;

export const IntakeBatchPath = z.object({ batchId: z.uuid() });

/** GET /intake-batches/{batchId}: a page of the documents' results (by base name); a whole zip's fits one page. */
export const IntakeBatchQuery = z.object({
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(500)), 100),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(TEXT_LIMITS.cursor))),
});

/** How a batch stands: documents known (null until the worker opened the zip) and the outcomes so far. */
export const IntakeBatchCounts = z.object({
  total: z.nullable(z.number()),
  processed: z.number(),
  accepted: z.number(),
  alreadyExisting: z.number(),
  refused: z.number(),
});
export type IntakeBatchCounts = z.infer<typeof IntakeBatchCounts>;

/** A code with its Spanish (es-PE) message, as the API's error body says it. */
export const IntakeReason = z.object({ code: z.string(), message: z.string() });

/** A batch without its documents: what the list of recent batches shows. */
export const IntakeBatchSummary = z.object({
  id: z.string(),
  status: IntakeBatchStatus,
  /** The zip's name as the user uploaded it. */
  fileName: z.string(),
  /** The company (RUC) the documents were sent for. */
  company: z.string(),
  counts: IntakeBatchCounts,
  /** 0 to 1; null while the zip is not yet opened. */
  progress: z.nullable(z.number()),
  /** REFUSED: why the zip was refused whole (nothing of it stored); FAILED: why it stopped. */
  error: z.nullable(IntakeReason),
  createdAt: IsoDateTime,
  finishedAt: z.nullable(IsoDateTime),
  /** When the portal last resumed the batch after its worker stopped (a crash, a restart); null if it never had to. */
  resumedAt: z._default(z.nullable(IsoDateTime), null),
});
export type IntakeBatchSummary = z.infer<typeof IntakeBatchSummary>;

/** The invoice a document became (or already was): the key its page takes. */
export const IntakeInvoiceRef = z.object({ supplierId: z.string(), invoiceType: z.string(), invoiceId: z.string() });

/** One document of the zip and what became of it. */
export const IntakeDocumentResult = z.object({
  /** The document's base name in the zip (its files' name without extension). */
  base: z.string(),
  files: z.array(z.string()),
  outcome: IntakeOutcome,
  /** ACCEPTED and ALREADY_EXISTS: the invoice. */
  invoice: z.nullable(IntakeInvoiceRef),
  /** ALREADY_EXISTS and REFUSED: the code and its Spanish message. */
  reason: z.nullable(IntakeReason),
  /** ACCEPTED with a CDR that staff should look at. */
  cdrWarning: z.nullable(z.string()),
  recordedAt: IsoDateTime,
});
export type IntakeDocumentResult = z.infer<typeof IntakeDocumentResult>;

/** A batch with a page of its documents' results. */
export const IntakeBatch = z.extend(IntakeBatchSummary, { results: pageOf(IntakeDocumentResult) });
export type IntakeBatch = z.infer<typeof IntakeBatch>;

export const IntakeBatchList = listOf(IntakeBatchSummary);
export type IntakeBatchList = z.infer<typeof IntakeBatchList>;

/** What the intake-batches queue carries. */
export const IntakeBatchMessage = z.object({ batchId: z.uuid() });
export type IntakeBatchMessage = z.infer<typeof IntakeBatchMessage>;
