import { conformityRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { conformityDocuments } from '../../use-cases/conformity-documents.factory.js';

export const handler = httpHandler(conformityRoutes.materialDocAvailability, ({ caller, path, query }) =>
  conformityDocuments.documentAvailability(caller, 'MATERIAL_DOCUMENT', path, query),
);
