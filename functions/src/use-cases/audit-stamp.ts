import { randomUUID } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import type { InvoiceAuditAction } from '@portal/shared';
import type { Caller } from '../http/caller.js';
import type { AuditStamp } from '../repositories/invoice-audit.js';

/** The trail's record of a change a signed-in user made: name, role, how they signed in, and the call. */
export function callerStamp(caller: Caller, action: InvoiceAuditAction, note: string | null = null): AuditStamp {
  const name = `${caller.firstName} ${caller.lastName}`.trim();
  return {
    actor: {
      id: caller.username,
      name: name || caller.email || caller.username,
      email: caller.email || null,
      role: caller.level,
      signIn: caller.signIn,
    },
    action,
    txId: caller.txId,
    note,
  };
}

/** The processes that change invoices on their own, as the trail names them. */
export const SYSTEM_ACTORS = {
  sunatValidation: 'Validación SUNAT',
  miroPosting: 'Contabilización en SAP',
  paymentSync: 'Sincronización de pagos con SAP',
  conformityClock: 'Plazo de conformidad (Ley 29623)',
  outboxSweeper: 'Reintentos automáticos',
  intake: 'Recepción de comprobantes',
} as const;

/**
 * The trail's record of a change a worker or scheduled job made. Its call is the job's invocation id, or else the
 * trace it runs in: a queue worker continues the trace of the request that queued its message, so the trail, the
 * logs and the traces meet on it.
 */
export function systemStamp(
  process: keyof typeof SYSTEM_ACTORS,
  action: InvoiceAuditAction,
  txId: string = trace.getActiveSpan()?.spanContext().traceId ?? randomUUID(),
  note: string | null = null,
): AuditStamp {
  return {
    actor: { id: `system:${process}`, name: SYSTEM_ACTORS[process], email: null, role: null, signIn: 'SYSTEM' },
    action,
    txId,
    note,
  };
}
