import { intakeBatchRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { intakeBatchReader } from '../../use-cases/intake-batch-reader.factory.js';

export const handler = httpHandler(intakeBatchRoutes.listIntakeBatches, ({ caller }) => intakeBatchReader.list(caller));
