import { referenceRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { referenceData } from '../../use-cases/reference-data.factory.js';

export const handler = httpHandler(referenceRoutes.listOfficeLocations, ({ caller, query }) =>
  referenceData.listOfficeLocations(caller, query),
);
