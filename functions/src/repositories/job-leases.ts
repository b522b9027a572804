/**
 * A long job's lease (a zip's batch, an export, a received e-mail: docs/intake-channels.md#lease-and-resume): the
 * run that holds the job and until when, and the job's place in the leases index (byClient `JOB#LEASE`, sorted by
 * when its lease lapses). The moves every kind of job makes alike, on its own item.
 */
export interface HeldJob {
  /** The conditional update of the job's item: false when its condition failed. */
  readonly update: (expression: string, values: Record<string, unknown>, condition: string) => Promise<boolean>;
  /** The job's sort key in the leases index for a lease that lapses at `at`. */
  readonly leaseSortKey: (at: string) => string;
  /** The condition that the job is still being worked on, and its values (`#status = :processing`, say). */
  readonly working: { readonly condition: string; readonly values: Readonly<Record<string, unknown>> };
}

/** Keeps the run's lease until `until`: false when the run no longer holds it (taken over, or ended). */
export function renewLease(job: HeldJob, owner: string, until: string): Promise<boolean> {
  return job.update(
    'SET leaseUntil = :until, gsi1sk = :leaseSk',
    { ':owner': owner, ':until': until, ':leaseSk': job.leaseSortKey(until), ...job.working.values },
    `${job.working.condition} AND leaseOwner = :owner`,
  );
}

/**
 * Lets go of the run's lease at once (a run that failed): the next delivery, or the sweeper, takes the job without
 * waiting for the lease to lapse. False when the run no longer held it.
 */
export function releaseLease(job: HeldJob, owner: string, now: string): Promise<boolean> {
  return job.update(
    'SET leaseUntil = :now, gsi1sk = :leaseSk',
    { ':owner': owner, ':now': now, ':leaseSk': job.leaseSortKey(now), ...job.working.values },
    `${job.working.condition} AND leaseOwner = :owner`,
  );
}

/**
 * Moves a lapsed job's place in the sweeper's index to `until` (its lease is left as it is), so that the next sweep
 * does not send it again while the message it was sent is on its way: false when the job moved since.
 */
export function postponeLapsed(job: HeldJob, leaseUntil: string, until: string): Promise<boolean> {
  return job.update(
    'SET gsi1sk = :leaseSk',
    { ':leaseUntil': leaseUntil, ':leaseSk': job.leaseSortKey(until), ...job.working.values },
    `${job.working.condition} AND leaseUntil = :leaseUntil`,
  );
}
