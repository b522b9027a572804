import { referenceRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { listEmployees } from '../../use-cases/reference-data.js';
import { referenceDataDeps } from '../../use-cases/reference-data.factory.js';

export const handler = httpHandler(referenceRoutes.listEmployees, ({ caller, query }) =>
  listEmployees(referenceDataDeps, caller, query),
);
