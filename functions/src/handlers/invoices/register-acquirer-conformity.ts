import { acquirerConformityRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { registerAcquirerConformity } from '../../use-cases/acquirer-conformity.js';
import { acquirerConformityDeps } from '../../use-cases/acquirer-conformity.factory.js';

export const handler = httpHandler(acquirerConformityRoutes.registerAcquirerConformity, ({ caller, path, body }) =>
  registerAcquirerConformity(acquirerConformityDeps, caller, path, body),
);
