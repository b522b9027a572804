import { conformityRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { conformityDocuments } from '../../use-cases/conformity-documents.factory.js';

export const handler = httpHandler(conformityRoutes.listServiceSheets, ({ caller, query }) =>
  conformityDocuments.list(caller, 'SERVICE_SHEET', query),
);
