import type { IntakeDeps, ReceivedFile } from './intake/intake-deps.js';

/**
 * The intake's store of received files in memory (unit tests): keys derived from the source and part, as the
 * real one derives them, so a retry lands on the same key.
 */
export function makeFakeReceivedFiles() {
  const files = new Map<string, ReceivedFile>();
  const storeReceived: IntakeDeps['storeReceived'] = async (caller, sourceKey, part, file) => {
    const key = `uploads/${caller.activeCompany ?? 'admin'}/2026/11/${encodeURIComponent(sourceKey)}-${part}.${part === 'pdf' ? 'pdf' : 'xml'}`;
    files.set(key, file);
    return key;
  };
  return { files, storeReceived };
}
