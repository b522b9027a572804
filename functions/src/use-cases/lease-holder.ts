/** A run's hold on the lease of the job it works on (an e-mail, a zip's batch). */
export interface HeldLease {
  /** True once a renewal found that another run holds the lease: the run stops and leaves the job to that one. */
  readonly state: { readonly lost: boolean };
  stop(): void;
}

/**
 * Renews a run's lease every third of its length until stopped; `lost` once a renewal finds another run holds it
 * (a renewal that fails on DynamoDB is tried again at the next beat, the lease still holding meanwhile).
 */
export function holdLease(renew: (until: string) => Promise<boolean>, clock: () => Date, leaseMs: number): HeldLease {
  const state = { lost: false };
  const timer = setInterval(() => {
    const until = new Date(clock().getTime() + leaseMs).toISOString();
    renew(until).then(
      (held) => {
        if (!held) state.lost = true;
      },
      () => undefined,
    );
  }, leaseMs / 3);
  timer.unref();
  return { state, stop: () => clearInterval(timer) };
}

/** Thrown inside a run that lost its job's lease (another run took it over): it stops without ending the job. */
export class LeaseLostError extends Error {}
