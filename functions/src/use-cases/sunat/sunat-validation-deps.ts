import { INVOICE_ERROR_MESSAGES } from '@portal/shared';
import type { SunatValidator } from '../../adapters/sunat.js';
import type { Logger } from '../../observability/logger.js';
import type { Meter } from '../../observability/meter.js';
import type { InvoiceStore } from '../../repositories/invoice-store.js';
import type { Outgoing } from '../../repositories/outgoing.js';
import type { SunatChecks } from '../../repositories/sunat-checks.js';

/** What the worker logs through (the Powertools logger in Lambda). */
export type WorkerLog = Pick<Logger, 'info' | 'warn' | 'error'>;

export interface SunatValidationDeps {
  readonly store: Pick<InvoiceStore, 'get' | 'setCertification'>;
  readonly sunat: SunatValidator;
  /** Sends the notice committed with the verdict (`notifications` queue); what it cannot send stays for the relay. */
  readonly outgoing: Pick<Outgoing, 'deliver'>;
  readonly clock: () => Date;
  readonly log: WorkerLog;
  /**
   * Counts each question to SUNAT and whether SUNAT could not be asked (METRICS.sunatCalls, sunatFailures).
   * @default UNCOUNTED
   */
  readonly meter?: Meter;
  /** The queue's maxReceiveCount: the receive after which a failed message goes to the DLQ. */
  readonly maxReceiveCount: number;
  /**
   * The invoice's SUNAT check (sunat-checks.ts): each time SUNAT cannot be asked, the detail says since when.
   * Without it the failure is only logged (the verdict still closes the check, in its own transaction).
   */
  readonly checks?: Pick<SunatChecks, 'recordFailure'>;
}

/** Shown on the invoice when SUNAT could not be asked on the message's last receive. */
export const SUNAT_FAILURE_MESSAGE = INVOICE_ERROR_MESSAGES.ERROR_UNEXPECTED_RESPONSE_FROM_SUNAT_VERIFICATION_SERVICE;

/** A failure as the log and the SUNAT check keep it: SUNAT's own detail, else the error's name and message. */
export function describe(error: unknown): string {
  if (error && typeof error === 'object' && 'detail' in error && typeof error.detail === 'string') return error.detail;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
