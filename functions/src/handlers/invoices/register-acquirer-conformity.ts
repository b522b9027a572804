import { acquirerConformityRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { acquirerConformity } from '../../use-cases/acquirer-conformity.factory.js';

export const handler = httpHandler(acquirerConformityRoutes.registerAcquirerConformity, ({ caller, path, body }) =>
  acquirerConformity.register(caller, path, body),
);
