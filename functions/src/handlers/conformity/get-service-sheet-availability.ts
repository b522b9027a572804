import { conformityRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { conformityDocuments } from '../../use-cases/conformity-documents.factory.js';

export const handler = httpHandler(conformityRoutes.serviceSheetAvailability, ({ caller, path, query }) =>
  conformityDocuments.documentAvailability(caller, 'SERVICE_SHEET', path, query),
);
