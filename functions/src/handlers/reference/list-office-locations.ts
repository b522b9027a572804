import { referenceRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { listOfficeLocations } from '../../use-cases/reference-data.js';
import { referenceDataDeps } from '../../use-cases/reference-data.factory.js';

export const handler = httpHandler(referenceRoutes.listOfficeLocations, ({ caller, query }) =>
  listOfficeLocations(referenceDataDeps, caller, query),
);
