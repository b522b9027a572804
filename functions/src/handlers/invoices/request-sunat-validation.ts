import { reviewRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { requestSunatValidation } from '../../use-cases/review/request-sunat-validation.js';
import { reviewDeps } from '../../use-cases/review/review.factory.js';

export const handler = httpHandler(reviewRoutes.requestSunatValidation, ({ caller, path }) =>
  requestSunatValidation(reviewDeps, caller, path),
);
