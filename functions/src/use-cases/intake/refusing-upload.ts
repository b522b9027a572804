import type { Invoice } from '@portal/shared';
import type { IntakeDeps } from './intake-deps.js';
import type { IntakeProgress } from './register-invoice.js';

/**
 * Runs the checks after the upload's own: a refusal (any 4xx before the write) deletes the upload. A
 * failure of the write itself keeps it: the same submission may be retried, or a concurrent one
 * holding the same key may be the one being stored.
 */
export async function refusingUpload(
  deps: Pick<IntakeDeps, 'discardUpload'>,
  keys: readonly string[],
  run: (progress: IntakeProgress) => Promise<Invoice>,
): Promise<Invoice> {
  const progress = { writing: false };
  try {
    return await run(progress);
  } catch (error) {
    const status = (error as { statusCode?: unknown }).statusCode;
    if (!progress.writing && typeof status === 'number' && status >= 400 && status < 500) {
      const reason = (error as Error).message;
      const code = String((error as { code?: unknown }).code);
      await Promise.all(keys.map((key) => deps.discardUpload(key, reason, code)));
    }
    throw error;
  }
}
