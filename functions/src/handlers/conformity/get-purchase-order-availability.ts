import { conformityRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { conformityDeps } from '../../use-cases/conformity/conformity.factory.js';
import { purchaseOrderAvailability } from '../../use-cases/conformity/purchase-order-availability.js';

export const handler = httpHandler(conformityRoutes.purchaseOrderAvailability, ({ caller, path, query }) =>
  purchaseOrderAvailability(conformityDeps, caller, path, query),
);
