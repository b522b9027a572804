import { afterEach, expect } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    /** How many expect() calls the test made (read by tests/support/timing-reporter.ts). */
    assertions?: number;
  }
}

// The count of a test's own body and its beforeEach/afterEach hooks, as vitest's expect.assertions() counts it.
afterEach(({ task }) => {
  task.meta.assertions = expect.getState().assertionCalls;
});
