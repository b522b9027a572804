import { INVOICE_ERROR_MESSAGES } from '@portal/shared';
import type { SapPort } from '../../adapters/sap.js';
import type { Queue } from '../../adapters/sqs.js';
import type { Logger } from '../../observability/logger.js';
import type { Meter } from '../../observability/meter.js';
import type { InvoiceStore } from '../../repositories/invoice-store.js';
import type { MiroOutbox } from '../../repositories/miro-outbox.js';

/** The ports of the MIRO posting: the MIRO worker's, and the outbox sweeper's when it finishes what a worker left. */
export interface MiroPostingDeps {
  readonly outbox: MiroOutbox;
  readonly store: Pick<InvoiceStore, 'get' | 'commit'>;
  readonly sap: Pick<SapPort, 'postSupplierInvoice' | 'findSupplierInvoice'>;
  readonly notifications: Queue;
  readonly clock: () => Date;
  readonly log: Pick<Logger, 'info' | 'warn' | 'error'>;
  /**
   * Counts each posting sent to SAP and whether it failed (METRICS.sapCalls, sapFailures).
   * @default UNCOUNTED
   */
  readonly meter?: Meter;
  /** How long one delivery may hold the record while it calls SAP; shorter than the visibility timeout (MIRO_TIMING.leaseMs). */
  readonly leaseMs: number;
  /**
   * Attempts before the posting is FAILED, and the wait after the first failed one (doubling after each).
   * @default MIRO_TIMING.defaultMaxAttempts, MIRO_TIMING.defaultRetryBaseMs
   */
  readonly maxAttempts?: number;
  readonly retryBaseMs?: number;
}

/** Shown on the invoice when the MIRO could not be posted on the message's last receive. */
export const MIRO_FAILURE_MESSAGE =
  INVOICE_ERROR_MESSAGES.ERROR_UNEXPECTED_EXCEPTION_DURING_MIRO_CREATION_REQUEST_SUBMIT;

/** Why a posting with no answer from SAP after its last attempt failed (the sweeper found nothing posted). */
export const MIRO_NO_ANSWER = 'SAP no respondió al último intento y no registra el documento.';
