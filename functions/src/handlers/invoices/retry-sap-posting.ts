import { reviewRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { retrySapPosting } from '../../use-cases/review/retry-sap-posting.js';
import { reviewDeps } from '../../use-cases/review/review.factory.js';

export const handler = httpHandler(reviewRoutes.retrySapPosting, ({ caller, path }) =>
  retrySapPosting(reviewDeps, caller, path),
);
