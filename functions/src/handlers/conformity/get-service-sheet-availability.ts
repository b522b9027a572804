import { conformityRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { conformityDeps } from '../../use-cases/conformity/conformity.factory.js';
import { conformityDocumentAvailability } from '../../use-cases/conformity/conformity-document-availability.js';

export const handler = httpHandler(conformityRoutes.serviceSheetAvailability, ({ caller, path, query }) =>
  conformityDocumentAvailability(conformityDeps, caller, 'SERVICE_SHEET', path, query),
);
