/** How long `until` waits, how often it asks, and what it names when it gives up. */
export interface UntilOptions {
  /** The deadline, in ms from the first ask (30 s by default). */
  readonly timeout?: number;
  /** Between two asks, in ms (250 by default; longer where each ask is a heavy or rate-limited call). */
  readonly interval?: number;
  /** What is waited for, named in the error past the deadline ("the SAP posting"). */
  readonly message?: string;
}

type Answer<T> = Exclude<T, false | null | undefined | 0 | ''>;

/**
 * Asks `check` until it answers something (true, or a value: returned), or throws past the deadline, naming
 * `message`. The one wait of the tests for what runs behind a queue, a worker or a log: the stage's answers arrive
 * when they do. An error `check` throws ends the wait at once.
 */
export async function until<T>(check: () => T | Promise<T>, options: UntilOptions = {}): Promise<Answer<T>> {
  const { timeout = 30_000, interval = 250, message = 'the condition' } = options;
  const deadline = Date.now() + timeout;
  for (;;) {
    const answer = await check();
    if (answer) return answer as Answer<T>;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeout} ms waiting for ${message}`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

/**
 * What `read` answers once `done` holds of it, or its last answer past the deadline (no error): for the waits whose
 * caller asserts on what it read, so that a failure shows what was there. Waits as `until` does.
 */
export async function readUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options: Omit<UntilOptions, 'message'> = {},
): Promise<T> {
  let last!: T;
  const deadline = Date.now() + (options.timeout ?? 30_000);
  await until(
    async () => {
      last = await read();
      return done(last) || Date.now() > deadline;
    },
    { ...options, timeout: Infinity },
  );
  return last;
}
