import { conformityRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { conformityDeps } from '../../use-cases/conformity/conformity.factory.js';
import { suggestConformityDocuments } from '../../use-cases/conformity/suggest-conformity-documents.js';

export const handler = httpHandler(conformityRoutes.suggestConformityDocuments, ({ caller, path, query }) =>
  suggestConformityDocuments(conformityDeps, caller, path, query),
);
