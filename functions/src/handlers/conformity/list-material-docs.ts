import { conformityRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { conformityDeps } from '../../use-cases/conformity/conformity.factory.js';
import { listConformityDocuments } from '../../use-cases/conformity/list-conformity-documents.js';

export const handler = httpHandler(conformityRoutes.listMaterialDocs, ({ caller, query }) =>
  listConformityDocuments(conformityDeps, caller, 'MATERIAL_DOCUMENT', query),
);
