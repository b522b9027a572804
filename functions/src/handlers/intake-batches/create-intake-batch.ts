import { intakeBatchRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { requestIntakeBatch } from '../../use-cases/intake-batches.factory.js';

export const handler = httpHandler(intakeBatchRoutes.createIntakeBatch, ({ caller, body }) =>
  requestIntakeBatch(caller, body),
);
