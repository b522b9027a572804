import { MIRO_POSTING, QUEUES, miroBackoffSeconds } from '@portal/shared';

/**
 * Every duration of the MIRO posting in one place (MIRO_POSTING's rules, read against the stage): how long a delivery
 * holds its record, the first backoff and the ones after it, and how long a message just sent is given before the
 * sweeper or a retry sends it again. The approval, the administrator's retry, the MIRO worker and the outbox sweeper
 * read them from here.
 */
export const MIRO_TIMING = {
  /** The backoff and grace when the stage gives none (the unit tests' deps leave them out). */
  defaultRetryBaseMs: MIRO_POSTING.retryBaseSeconds * 1000,
  defaultGraceMs: MIRO_POSTING.graceSeconds * 1000,
  defaultMaxAttempts: MIRO_POSTING.maxAttempts,

  /** How long a delivery holds a record: twice the worker's timeout, so a dead worker's lease ends well before SQS redelivers. */
  leaseMs(): number {
    return QUEUES.miroRequests.consumerTimeoutSeconds * 2 * 1000;
  },

  /** The first backoff: MIRO_POSTING.retryBaseSeconds, or the stage's MIRO_RETRY_BASE_SECONDS (the local stage's tests). */
  retryBaseMs(env: NodeJS.ProcessEnv = process.env): number {
    const seconds = Number(env[MIRO_POSTING.timeScaleEnv]);
    return (Number.isFinite(seconds) && seconds > 0 ? seconds : MIRO_POSTING.retryBaseSeconds) * 1000;
  },

  /**
   * How long after it was sent a MIRO request is sent again if nothing happened: a minute in AWS, shorter where the
   * stage makes retries quicker (the local stage).
   */
  graceMs(env: NodeJS.ProcessEnv = process.env): number {
    return Math.min(MIRO_POSTING.graceSeconds * 1000, 2 * MIRO_TIMING.retryBaseMs(env));
  },

  /** Wait after failed attempt `attempt` (1-based): base, 2·base, 4·base, … */
  backoffMs(attempt: number, retryBaseMs: number): number {
    return miroBackoffSeconds(attempt, retryBaseMs / 1000) * 1000;
  },
} as const;
