import { conformityRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { conformityDocuments } from '../../use-cases/conformity-documents.factory.js';

export const handler = httpHandler(conformityRoutes.purchaseOrderAvailability, ({ caller, path, query }) =>
  conformityDocuments.purchaseOrderAvailability(caller, path, query),
);
