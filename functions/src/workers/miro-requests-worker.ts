import { MiroRequestMessage } from '@portal/shared';
import type { MiroPostingDeps } from '../use-cases/miro/miro-posting-deps.js';
import { postMiroRequest } from '../use-cases/miro/post-miro-request.js';
import { sqsBatchHandler } from './sqs-batch.js';

/** Consumer of the MIRO queue: each message is one MIRO request, posted to SAP exactly once (post-miro-request.ts). */
export function makeMiroRequestsWorker(deps: MiroPostingDeps) {
  return sqsBatchHandler(MiroRequestMessage, async (message) => {
    await postMiroRequest(deps, message);
  });
}
