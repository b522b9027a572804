import { reviewRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { invoiceReview } from '../../use-cases/review-invoice.factory.js';

export const handler = httpHandler(reviewRoutes.requestSunatValidation, ({ caller, path }) =>
  invoiceReview.requestSunatValidation(caller, path),
);
