import { conformityRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { conformityDeps } from '../../use-cases/conformity/conformity.factory.js';
import { listConformityDocuments } from '../../use-cases/conformity/list-conformity-documents.js';

export const handler = httpHandler(conformityRoutes.listServiceSheets, ({ caller, query }) =>
  listConformityDocuments(conformityDeps, caller, 'SERVICE_SHEET', query),
);
