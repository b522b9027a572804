import * as z from 'zod/mini';
import { staffOnly } from './visibility.js';
import { IsoDateTime } from './common.js';

/**
 * How an invoice's SUNAT check is driven to a verdict (docs/data-design.md, "SUNAT checks"): the intake (or a
 * staff request) commits the SUNAT message with a check record due `staleAfterSeconds` later. When it is due and
 * the invoice still waits, the outbox sweeper looks at the message: still on its way (its outgoing item is there
 * and not abandoned), the check waits again; lost, abandoned or never written (the seed), the sweeper commits a
 * new message. Each wait doubles (`staleAfterSeconds` · 2^n), up to `maxWaitSeconds`: a SUNAT that stays down
 * is asked again for ever, ever less often.
 */
export const SUNAT_CHECK = {
  staleAfterSeconds: 600,
  maxWaitSeconds: 6 * 3600,
  /** Overrides staleAfterSeconds (the local stage: a test should not wait ten minutes). */
  timeScaleEnv: 'SUNAT_RECHECK_SECONDS',
} as const;

/** The title of the history entry a staff request for a new SUNAT check adds (the status does not change). */
export const SUNAT_RECHECK_HISTORY_TITLE = 'Nueva consulta a SUNAT';

/** Seconds the sweeper waits before looking again at a check sent again `redrives` times. */
export function sunatRecheckSeconds(redrives: number, baseSeconds: number = SUNAT_CHECK.staleAfterSeconds): number {
  return Math.min(baseSeconds * 2 ** Math.max(0, redrives), Math.max(baseSeconds, SUNAT_CHECK.maxWaitSeconds));
}

/** An invoice waiting for SUNAT (certStatus PENDING), as its detail shows it: since when, and what happens next. */
export const SunatCheck = z.object({
  /** Since when it waits: its intake, or the last new check staff asked for. */
  pendingSince: IsoDateTime,
  /** When the portal looks at it again and, if no answer is on its way, asks SUNAT again. */
  nextCheckAt: z.nullable(IsoDateTime),
  /** The last time SUNAT could not be asked during this wait (SUNAT down), or null. */
  lastFailureAt: z.nullable(IsoDateTime),
  /** Who asked for the new check under way (a staff member's e-mail), and when; null when the portal asked alone. */
  requestedBy: staffOnly(z.nullable(z.string())),
  requestedAt: z.nullable(IsoDateTime),
});
export type SunatCheck = z.infer<typeof SunatCheck>;

/** The stored check record, as far as the view needs it. */
export interface SunatCheckRecordView {
  readonly state: 'OPEN' | 'DONE';
  readonly pendingSince: string;
  readonly dueAt?: string | null;
  readonly lastFailureAt?: string | null;
  readonly requestedBy?: string | null;
  readonly requestedAt?: string | null;
}

/** What a person is shown of an open check (null once SUNAT answered). */
export function sunatCheckView(record: SunatCheckRecordView): SunatCheck | null {
  if (record.state !== 'OPEN') return null;
  const failedNow = record.lastFailureAt && record.lastFailureAt >= record.pendingSince;
  return {
    pendingSince: record.pendingSince,
    nextCheckAt: record.dueAt ?? null,
    lastFailureAt: failedNow ? record.lastFailureAt! : null,
    requestedBy: record.requestedBy ?? null,
    requestedAt: record.requestedAt ?? null,
  };
}
