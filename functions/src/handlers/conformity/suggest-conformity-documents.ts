import { conformityRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { conformityDocuments } from '../../use-cases/conformity-documents.factory.js';

export const handler = httpHandler(conformityRoutes.suggestConformityDocuments, ({ caller, path, query }) =>
  conformityDocuments.suggestions(caller, path, query),
);
